/**
 * The simulated agent (only with --simulate), outside /api: enroll peers with setup keys, connect and
 * disconnect them, finish peer jobs, feed event logs. Usable over HTTP (tests, `privnet-server sim`) and
 * in-process.
 */
import type { FastifyInstance } from "fastify";
import type { ServerState } from "./context";

export function registerSimulator(app: FastifyInstance, state: ServerState): void {
  void app;
  void state;
}
