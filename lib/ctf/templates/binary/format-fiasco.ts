import { notFound } from "@/lib/kernel/errors";
import { defineTemplate, textFile, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Format Fiasco (binary exploitation): an echo service passes its input to printf() as the
 * format (source given). The target emulates printf over a simulated x86-64 call: arguments
 * 1–5 in registers, then the stack, where the flag buffer sits a few words up (easy: a
 * pointer to it too, for %s). `%p`, `%x`, `%lx`, `%d`, `%u`, `%c`, `%s`, positional `%7$p`,
 * widths; `%n` aborts as a hardened libc would. hard/insane: a smaller input buffer and the
 * flag deeper, so positional arguments are a must.
 */
type State = TargetState & { bufSize: number; junk: string[]; registers: string[]; flagAddress: string; bufAddress: string };

const MAX_OUTPUT = 8192;

/** The argument slots printf would read: registers, junk words, the flag's words, (easy) a pointer to it, the buffer's words, then the frame. */
function slots(state: State, flag: string, input: string): bigint[] {
  const words = (bytes: Buffer) => Array.from({ length: bytes.length / 8 }, (_, index) => bytes.readBigUInt64LE(index * 8));
  const flagBytes = Buffer.alloc(Math.ceil((flag.length + 1) / 8) * 8);
  flagBytes.write(flag, "latin1");
  const buf = Buffer.alloc(state.bufSize);
  buf.write(input, "latin1");
  return [
    ...state.registers.map(BigInt),
    ...state.junk.map(BigInt),
    ...words(flagBytes),
    ...(state.difficulty === "easy" ? [BigInt(state.flagAddress)] : []),
    ...words(buf),
    0x9c3a61f2d4e80b00n, // canary
    BigInt(state.bufAddress) + 0x140n, // saved rbp
    0x5555555551a9n, // return address into main
  ];
}

const SPEC = /%(?:(\d+)\$)?([-+ #0]*)(\d*)(?:\.(\d+))?(hh|h|ll|l|z)?([diuxXpscn%])/y;

/** printf(format) over the simulated arguments: its output, or how the process died. */
function printf(state: State, format: string, flag: string): string {
  const args = slots(state, flag, format);
  let next = 0;
  let out = "";
  for (let at = 0; at < format.length; ) {
    if (format[at] !== "%") {
      out += format[at++];
      continue;
    }
    SPEC.lastIndex = at;
    const match = SPEC.exec(format);
    if (!match) {
      out += format[at++];
      continue;
    }
    at = SPEC.lastIndex;
    const [, position, flags, width, , length, conversion] = match;
    if (conversion === "%") {
      out += "%";
      continue;
    }
    if (conversion === "n") return `${out}\n*** %n in writable segment detected ***\nAborted (core dumped)\n`;
    const index = position ? Number(position) - 1 : next++;
    // Past the frame printf reads whatever is there: zeros, as on a fresh stack page.
    const value = index < args.length ? args[index] : 0n;
    const wide = length === "l" || length === "ll" || length === "z";
    let text: string;
    switch (conversion) {
      case "p":
        text = value === 0n ? "(nil)" : `0x${value.toString(16)}`;
        break;
      case "x":
      case "X": {
        const shown = (wide ? value : value & 0xffffffffn).toString(16);
        text = conversion === "X" ? shown.toUpperCase() : shown;
        break;
      }
      case "u":
        text = (wide ? value : value & 0xffffffffn).toString();
        break;
      case "d":
      case "i":
        text = (wide ? BigInt.asIntN(64, value) : BigInt.asIntN(32, value)).toString();
        break;
      case "c":
        text = String.fromCharCode(Number(value & 0xffn));
        break;
      default: {
        if (value === BigInt(state.flagAddress)) text = flag;
        else if (value === BigInt(state.bufAddress)) text = format;
        else if (value === 0n) text = "(null)";
        else return `${out}\nSegmentation fault (core dumped)\n`;
      }
    }
    const pad = Math.min(Number(width || 0), 256);
    out += flags.includes("-") ? text.padEnd(pad) : text.padStart(pad, flags.includes("0") && conversion !== "s" ? "0" : " ");
    if (out.length > MAX_OUTPUT) return `${out.slice(0, MAX_OUTPUT)}\n[output truncated]\n`;
  }
  return `${out}\n`;
}

function source(state: State): string {
  return `#include <stdio.h>

/* x86-64 Linux: printf's arguments 1-5 are in rsi, rdx, rcx, r8, r9; from the 6th on, the stack. */
int main(void) {
    char flag[32];
${state.difficulty === "easy" ? "    char *secret = flag;\n" : ""}    char buf[${state.bufSize}];

    load_flag(flag, sizeof flag);
    while (fgets(buf, sizeof buf, stdin)) {    /* at most ${state.bufSize - 1} characters */
        printf(buf);                           /* echo it back */
    }
    return 0;
}
`;
}

export const formatFiasco = defineTemplate<State>({
  key: "format-fiasco",
  build({ difficulty, rng }) {
    const junkWords = { easy: 1, medium: 4, hard: 11, insane: 19 }[difficulty];
    const address = () => `0x7ffd${rng.hex(4)}0`;
    const junk = Array.from({ length: junkWords }, () => rng.pick([address(), `0x${rng.between(0, 4096).toString(16)}`, `0x${rng.hex(4)}`]));
    const bufAddress = address();
    const state: State = {
      difficulty,
      bufSize: { easy: 128, medium: 128, hard: 48, insane: 32 }[difficulty],
      junk,
      registers: [bufAddress, "0x1", `0x${rng.hex(3)}`, "0x0", `0x${rng.hex(5)}`],
      flagAddress: address(),
      bufAddress,
    };
    const first = 6 + junkWords;
    return {
      description: "printf(user_input) leaks more than it should (echo.c). The echo service is the target's `echo?msg=` page.",
      hints: ["%p walks the stack.", "%7$p prints the 7th argument directly."],
      solution: [
        "Send `%p.%p.%p…` (or positional `%6$p`, `%7$p`… when the buffer is short) to dump the arguments printf reads.",
        difficulty === "easy"
          ? `Argument ${first + 4} is a pointer to the flag: \`%${first + 4}$s\` prints it. (Or decode arguments ${first}–${first + 3}.)`
          : `Arguments ${first}–${first + 3} are the flag's bytes, 8 per word, little-endian: write each word's bytes least significant first and read them as text.`,
      ],
      file: textFile("echo.c", source(state)),
      target: state,
    };
  },
  serve(state, request) {
    if (request.page === "index") return { text: "echo — it says back what you say\n\nTry: ./echo?msg=hello\n" };
    if (request.page !== "echo") throw notFound("Page");
    // fgets() keeps at most bufSize - 1 characters, up to the first newline.
    const line = (request.query.msg ?? "").split("\n")[0].slice(0, state.bufSize - 1);
    return { text: printf(state, line, request.flag) };
  },
});
