import { notFound } from "@/lib/kernel/errors";
import type { Rng } from "@/lib/ctf/templates/kit/rng";
import { defineTemplate, textFile, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Overflow 101 (binary exploitation): a C service (source given) reads a name with gets()
 * into a fixed buffer right before `is_admin`. No native code runs: the target emulates the
 * struct's bytes — the input's UTF-8 bytes and gets()'s terminating NUL are copied over the
 * buffer and whatever follows it. easy: any non-zero `is_admin`; medium: a 4-letter magic
 * value (little-endian); hard: a magic value with control bytes (percent-encode them);
 * insane: as hard, behind a homemade canary that must be rewritten with its value (the debug
 * banner prints it).
 */
type State = TargetState & { size: number; magic: number; canary: number | null };

/** A 32-bit value whose bytes are in 0x01–0x7f but not \n or \r (gets() stops at \n; %00 cannot be sent). */
function wordFrom(bytes: () => number): number {
  const parts = [bytes(), bytes(), bytes(), bytes()];
  return ((parts[3] << 24) | (parts[2] << 16) | (parts[1] << 8) | parts[0]) >>> 0;
}
const controlByte = (rng: Rng) => () => rng.pick([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0b, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x7f]);
const letterByte = (rng: Rng) => () => rng.pick([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"].map((char) => char.charCodeAt(0)));

const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

function source(state: State): string {
  const canary = state.canary !== null;
  const check = state.difficulty === "easy" ? "req.is_admin != 0" : `req.is_admin == ${hex(state.magic)}`;
  return `#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

/* Compiled with -fno-stack-protector -O0; x86-64, little-endian; no padding between fields. */
struct request {
    char name[${state.size}];
${canary ? "    uint32_t guard;      /* our own stack guard: a random value, checked before use */\n" : ""}    uint32_t is_admin;
};

int main(void) {
    struct request req;
${canary ? "    uint32_t expected = random_guard();\n    req.guard = expected;\n    debug(\"guard = 0x%08x\", expected);   /* TODO: remove before release */\n" : ""}    req.is_admin = 0;

    printf("What is your name? ");
    gets(req.name);                        /* reads until a newline, no limit */
${canary ? '    if (req.guard != expected) { puts("*** guard smashed ***"); abort(); }\n' : ""}
    if (${check}) {
        print_flag();
    } else {
        printf("Hello, %s! You are not an admin.\\n", req.name);
    }
    return 0;
}
`;
}

/** What the program prints for an input: the struct's bytes after gets(), then the checks. */
function run(state: State, input: string, flag: string): string {
  const canary = state.canary !== null;
  const layout = state.size + (canary ? 4 : 0) + 4;
  const memory = Buffer.alloc(layout + 16, 0x41); // the struct, then saved frame pointer and return address
  memory.fill(0, 0, state.size);
  if (canary) memory.writeUInt32LE(state.canary!, state.size);
  memory.writeUInt32LE(0, state.size + (canary ? 4 : 0));
  const line = Buffer.from(input.split("\n")[0], "utf8");
  const written = Buffer.concat([line, Buffer.from([0])]);
  const crashed = written.length > memory.length - 8; // the return address is overwritten
  written.copy(memory, 0, 0, Math.min(written.length, memory.length));
  const out: string[] = [];
  if (canary && memory.readUInt32LE(state.size) !== state.canary) return "*** guard smashed ***\nAborted (core dumped)\n";
  const admin = memory.readUInt32LE(state.size + (canary ? 4 : 0));
  const granted = state.difficulty === "easy" ? admin !== 0 : admin === state.magic;
  if (granted) out.push(`Access granted. ${flag}`);
  else {
    const end = memory.indexOf(0);
    out.push(`Hello, ${memory.subarray(0, end < 0 ? memory.length : end).toString("latin1")}! You are not an admin.`, `(is_admin = ${hex(admin)})`);
  }
  if (crashed) out.push("Segmentation fault (core dumped)");
  return `${out.join("\n")}\n`;
}

export const overflow101 = defineTemplate<State>({
  key: "overflow-101",
  build({ difficulty, rng }) {
    const size = { easy: 16, medium: 32, hard: 64, insane: 48 }[difficulty];
    const magic = difficulty === "medium" ? wordFrom(letterByte(rng)) : wordFrom(controlByte(rng));
    const state: State = { difficulty, size, magic, canary: difficulty === "insane" ? wordFrom(letterByte(rng)) : null };
    const how = {
      easy: `Send more than ${size} characters: the extra bytes land in is_admin, which is then not zero.`,
      medium: `Send ${size} filler characters, then the 4 bytes of ${hex(magic)} in little-endian order (least significant first): they are letters.`,
      hard: `Send ${size} filler characters, then the bytes of ${hex(magic)} little-endian, percent-encoded in the URL (they are control characters).`,
      insane: `The index page prints the guard. Send ${size} filler characters, the guard's 4 bytes little-endian (unchanged), then ${hex(magic)} little-endian, percent-encoded.`,
    }[difficulty];
    return {
      description: "A fixed-size buffer and gets() (vuln.c). The service (the target's `run?input=` page) prints the flag only to an admin.",
      hints: ["Find how many bytes separate the buffer from is_admin.", "x86-64 is little-endian."],
      solution: ["Read vuln.c: gets() writes past `name` into the fields after it.", how, "`run?input=…` answers with the flag."],
      file: textFile("vuln.c", source(state)),
      target: state,
    };
  },
  serve(state, request) {
    if (request.page === "index") {
      return { text: `vuln — the name service\n\nRun it with your input: ./run?input=<your name> (the input's UTF-8 bytes are what gets() reads)\n${state.canary !== null ? `[debug] guard = ${hex(state.canary)}\n` : ""}` };
    }
    if (request.page !== "run") throw notFound("Page");
    return { text: `What is your name? ${run(state, request.query.input ?? "", request.flag)}` };
  },
});
