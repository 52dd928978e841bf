import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { locales } from "@/lib/platform/i18n/locales";
import { messages } from "@/lib/platform/i18n/messages";
import { translator } from "@/lib/platform/i18n/translator";

/**
 * The translations are complete: every locale holds exactly English's keys, each message
 * parses as ICU, names the same arguments as English's (a German text that forgot `{name}`
 * or invented `{nom}` fails here), is not empty, and formats.
 */

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") found.set(path, value);
    else for (const [leaf, text] of leaves(value, path)) found.set(leaf, text);
  }
  return found;
}

/** The argument names of a message, through plurals and selects. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      into.add(`<${element.value}>`);
      argumentsOf(element.children, into);
      continue;
    }
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) argumentsOf(option.value, into);
  }
  return into;
}

const english = leaves(messages.en as unknown as Tree);

/** What is wrong with a locale's messages against English's: keys missing or extra, empty texts, other arguments. */
function problems(tree: Tree): string[] {
  const own = leaves(tree);
  const found: string[] = [];
  for (const key of english.keys()) if (!own.has(key)) found.push(`missing ${key}`);
  for (const [key, text] of own) {
    const reference = english.get(key);
    if (reference === undefined) {
      found.push(`extra ${key}`);
      continue;
    }
    if (!text.trim()) found.push(`empty ${key}`);
    const ours = [...argumentsOf(parse(text))].sort().join(",");
    const theirs = [...argumentsOf(parse(reference))].sort().join(",");
    if (ours !== theirs) found.push(`arguments of ${key}: ${ours} instead of ${theirs}`);
  }
  return found;
}

describe("the recipient-facing messages", () => {
  it("English has messages in every namespace", () => {
    for (const namespace of Object.keys(messages.en)) expect([...english.keys()].some((key) => key.startsWith(`${namespace}.`)), namespace).toBe(true);
  });

  for (const locale of locales) {
    it(`${locale} holds exactly English's keys, each a non-empty ICU message with English's arguments`, () => {
      expect(problems(messages[locale] as unknown as Tree)).toEqual([]);
    });
  }

  it("finds a missing key, an empty text and a changed argument", () => {
    const broken = structuredClone(messages.de) as unknown as { common: Tree & { duration: Tree; settings: Tree } };
    delete broken.common.duration.hours;
    broken.common.settings.opens = " ";
    broken.common.settings.timeLimit = "Zeitlimit: {dauer}.";
    expect(problems(broken as unknown as Tree)).toEqual(
      expect.arrayContaining(["missing common.duration.hours", "empty common.settings.opens", "arguments of common.settings.timeLimit: dauer instead of duration", "arguments of common.settings.opens:  instead of when"]),
    );
  });

  it("formats in every locale (plurals)", () => {
    for (const locale of locales) {
      const t = translator(locale, "common");
      expect(t("duration.minutes", { minutes: 1 })).toMatch(/1/);
      expect(t("duration.hours", { hours: 2 })).toMatch(/2/);
    }
    expect(translator("de", "common")("duration.minutes", { minutes: 5 })).toBe("5 Minuten");
    expect(translator("fr", "common")("duration.hours", { hours: 1 })).toBe("1 heure");
    expect(translator("es", "common")("duration.minutes", { minutes: 1 })).toBe("1 minuto");
  });
});
