/**
 * Reads privnet-server's request log (`--request-log FILE`: one JSON line per request: method, route, path,
 * status, durationMs) in windows. A window ends with a marker request (a GET of a group id that cannot exist,
 * answered 404; shaped like a real id, since the log writes only those as sent): the server writes log lines in order, so once the marker's line is in the file, every request
 * of the window is too.
 */
import * as fs from "node:fs";

export interface LogEntry {
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
}

export class RequestLog {
  private offset = 0;
  private markers = 0;

  constructor(
    private readonly file: string,
    private readonly server: { url: string; token: string },
  ) {}

  /** Starts a window here: entries logged so far are skipped by the next {@link take}. */
  async mark(): Promise<void> {
    await this.take();
  }

  /** The entries since the last mark/take (API and simulator requests; the marker itself left out). */
  async take(timeoutMs = 10_000): Promise<LogEntry[]> {
    // Shaped like an id the server issues (20 base32hex characters), or the log would write `***` for it.
    const marker = `m${process.pid.toString(32).padStart(7, "0")}${(++this.markers).toString(32).padStart(12, "0")}`;
    const res = await fetch(`${this.server.url}/api/groups/${marker}`, {
      headers: { Authorization: `Token ${this.server.token}` },
    });
    await res.arrayBuffer();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.readFrom(this.offset);
      const at = text.indexOf(marker);
      if (at >= 0) {
        const end = text.indexOf("\n", at);
        const chunk = text.slice(0, end < 0 ? text.length : end + 1);
        this.offset += Buffer.byteLength(chunk);
        return chunk
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l) as LogEntry)
          .filter((e) => !e.path.includes(marker));
      }
      if (Date.now() > deadline)
        throw new Error(`request log: marker ${marker} not written within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * The entries since the last mark/take, without a marker request (for a server whose every /api request
   * counts, e.g. one that injects faults): waits until the file has not grown for `quietMs`.
   */
  async takeSettled(quietMs = 300, timeoutMs = 10_000): Promise<LogEntry[]> {
    const deadline = Date.now() + timeoutMs;
    let size = -1;
    let stableSince = Date.now();
    for (;;) {
      const now = fs.statSync(this.file).size;
      if (now !== size) {
        size = now;
        stableSince = Date.now();
      } else if (Date.now() - stableSince >= quietMs || Date.now() > deadline) {
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const text = this.readFrom(this.offset);
    const end = text.lastIndexOf("\n") + 1;
    this.offset += Buffer.byteLength(text.slice(0, end));
    return text
      .slice(0, end)
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as LogEntry);
  }

  private readFrom(offset: number): string {
    const fd = fs.openSync(this.file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, size - offset));
      fs.readSync(fd, buf, 0, buf.length, offset);
      return buf.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  }
}
