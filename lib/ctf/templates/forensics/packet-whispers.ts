import type { Rng } from "@/lib/ctf/templates/kit/rng";
import { defineTemplate, fakeFlag, textFile } from "@/lib/ctf/templates/kit/types";

/**
 * Packet Whispers (forensics): a capture of plain-HTTP traffic, exported as text stream by
 * stream (what "Follow TCP stream" shows). Somebody logged in; the password is the flag.
 * easy: one form login; medium: failed logins around the good one (the one answered
 * 302 → /dashboard); hard/insane: HTTP Basic authentication (base64), more noise.
 */
type Exchange = { request: string; response: string };

const page = (rng: Rng, path: string): Exchange => ({
  request: `GET ${path} HTTP/1.1\r\nHost: intranet.local\r\nUser-Agent: Mozilla/5.0\r\nAccept: */*\r\n\r\n`,
  response: `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${rng.between(200, 4000)}\r\n\r\n<html>…</html>\r\n`,
});

function login(user: string, password: string, ok: boolean, basic: boolean): Exchange {
  const outcome = ok ? "HTTP/1.1 302 Found\r\nLocation: /dashboard\r\nSet-Cookie: sid=4f2a9c; HttpOnly\r\n\r\n" : "HTTP/1.1 401 Unauthorized\r\nContent-Length: 19\r\n\r\nInvalid credentials\r\n";
  if (basic) {
    const credentials = Buffer.from(`${user}:${password}`).toString("base64");
    return { request: `GET /admin HTTP/1.1\r\nHost: intranet.local\r\nAuthorization: Basic ${credentials}\r\n\r\n`, response: ok ? outcome.replace("Location: /dashboard", "Location: /admin/dashboard") : outcome };
  }
  const body = `username=${encodeURIComponent(user)}&password=${encodeURIComponent(password)}`;
  return {
    request: `POST /login HTTP/1.1\r\nHost: intranet.local\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}\r\n`,
    response: outcome,
  };
}

export const packetWhispers = defineTemplate({
  key: "packet-whispers",
  build({ flag, difficulty, rng }) {
    const basic = difficulty === "hard" || difficulty === "insane";
    const decoys = { easy: 0, medium: 3, hard: 4, insane: 8 }[difficulty];
    const user = rng.pick(["alice", "bob", "carol", "dave", "erin"]);
    const exchanges: Exchange[] = [page(rng, "/"), page(rng, "/style.css"), page(rng, "/favicon.ico")];
    for (let i = 0; i < decoys; i++) exchanges.push(login(rng.pick(["admin", "root", user, "guest"]), fakeFlag(rng), false, basic));
    exchanges.splice(rng.between(1, exchanges.length), 0, login(user, flag, true, basic));
    exchanges.push(page(rng, "/dashboard"));
    const client = `10.0.${rng.between(0, 9)}.${rng.between(2, 250)}`;
    let time = rng.between(1000, 5000) / 1000;
    const streams = exchanges.map((exchange, index) => {
      const port = 49152 + rng.int(16000);
      time += rng.between(20, 900) / 1000;
      return [
        `===== tcp.stream eq ${index} — ${client}:${port} → 192.168.1.10:80 — t=${time.toFixed(3)} s =====`,
        `>>> client`,
        exchange.request.replaceAll("\r\n", "\n").trimEnd(),
        `<<< server`,
        exchange.response.replaceAll("\r\n", "\n").trimEnd(),
        "",
      ].join("\n");
    });
    return {
      description: "A capture of traffic to the intranet over plain HTTP (capture.txt, one TCP stream after another). Who logged in, and with what?",
      hints: ["Follow the TCP streams of the logins.", basic ? "Basic authentication is base64, not encryption; only one login succeeded." : "Only one login succeeded: look at the answers."],
      solution: [
        "Read capture.txt stream by stream.",
        basic
          ? "Find the request whose answer is `302 Found` (the others got 401): decode its `Authorization: Basic` value from base64, `user:password`."
          : "Find the login whose answer is `302 Found` → /dashboard (the others got 401): its form body has `password=` (URL-encoded).",
        `The password of ${user} is the flag.`,
      ],
      file: textFile("capture.txt", `${streams.join("\n")}`),
    };
  },
});
