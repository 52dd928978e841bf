import net from "node:net";

export type TrickleOutcome = {
  /** The client sent everything: the server waited for it all. */
  finished: boolean;
  /** What the server answered, if anything. */
  received: string;
};

/**
 * A slow client on a raw socket: sends `head` at once, then `slow` one byte every `everyMs`,
 * then `tail`, and stops as soon as the server closes the connection. For the timeouts of
 * scripts/http-server.mjs (a 408 and a closed socket before the client is done).
 */
export function trickle(host: string, port: number, { head, slow, everyMs, tail = "" }: { head: string; slow: string; everyMs: number; tail?: string }): Promise<TrickleOutcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let received = "";
    let sent = 0;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // A write racing the server's close: the close is what is waited for.
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ finished, received });
    });
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.destroyed || socket.writableEnded) return clearInterval(timer);
        if (sent < slow.length) {
          socket.write(slow[sent++]);
          return;
        }
        clearInterval(timer);
        finished = true;
        socket.end(tail);
      }, everyMs);
    });
  });
}
