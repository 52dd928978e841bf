import { createHash } from "node:crypto";
import { AppError, notFound } from "@/lib/kernel/errors";
import { defineTemplate, type TargetState } from "@/lib/ctf/templates/kit/types";

/**
 * Weak Service (offsec): a legacy device's admin interface (the target) still has its
 * vendor's default password. The banner names the model and its serial; the vendor's manual
 * (also served) says how the default password is made: easy, a fixed word; medium, `admin`
 * and the serial's last four digits; hard, the serial reversed; insane, the first 8 hex
 * digits of SHA-256 of the serial.
 */
type State = TargetState & { model: string; firmware: string; serial: string; user: string; word: string };

function defaultPassword(state: State): string {
  switch (state.difficulty) {
    case "easy":
      return state.word;
    case "medium":
      return `admin${state.serial.slice(-4)}`;
    case "hard":
      return [...state.serial].reverse().join("");
    case "insane":
      return createHash("sha256").update(state.serial).digest("hex").slice(0, 8);
  }
}

const rules = {
  easy: (state: State) => `the password is "${state.word}"`,
  medium: () => 'the password is "admin" followed by the last four digits of the serial number',
  hard: () => "the password is the serial number written backwards",
  insane: () => "the password is the first 8 hexadecimal digits of the SHA-256 of the serial number (as printed)",
};

export const weakService = defineTemplate<State>({
  key: "weak-service",
  build({ difficulty, rng }) {
    const model = rng.pick(["NetGuard 3000", "RouteMaster R7", "CamBox Pro", "PowerLink UPS-2"]);
    const state: State = {
      difficulty,
      model,
      firmware: `${rng.between(1, 4)}.${rng.between(0, 9)}.${rng.between(0, 20)}`,
      serial: `${model.replace(/[^A-Z]/g, "")}-${rng.between(100000, 999999)}`,
      user: rng.pick(["admin", "root", "supervisor"]),
      word: rng.pick(["admin", "changeme", "password1", "default"]),
    };
    return {
      description: `A legacy ${model} on the network (the target) was installed years ago and never reconfigured. Log in to its admin interface.`,
      hints: ["Enumerate: the banner says exactly what the device is.", "Vendors publish manuals; manuals list default credentials."],
      solution: [
        `The target's \`index\` banner names the device (${model}, serial ${state.serial}) and links its manual.`,
        `The manual's "Default credentials" section: the user is "${state.user}" and ${rules[difficulty](state)}: "${defaultPassword(state)}".`,
        "`login?user=…&password=…` with those credentials shows the flag.",
      ],
      target: state,
    };
  },
  serve(state, request) {
    switch (request.page) {
      case "index":
        return { text: `${state.model} admin interface — firmware ${state.firmware}\nSerial number: ${state.serial}\n\nLog in: ./login?user=<user>&password=<password>\nUser manual: ./manual\n` };
      case "manual":
        return {
          text: [
            `${state.model} — user manual (firmware 1.x–4.x)`,
            "",
            "3. First start",
            "3.1 Default credentials",
            `The device ships with one account, "${state.user}". Until it is changed, ${rules[state.difficulty](state)}.`,
            "Change it at once under Settings → Security.",
            "",
          ].join("\n"),
        };
      case "login": {
        if (request.query.user !== state.user || request.query.password !== defaultPassword(state)) throw new AppError("forbidden", "Login failed: unknown user or wrong password.");
        return { text: `Welcome, ${state.user}.\nSystem notes: the maintenance code is ${request.flag}\n` };
      }
      default:
        throw notFound("Page");
    }
  },
});
