/** Simulated feeds of the event logs (network traffic, proxy access logs), under /sim with --simulate. */
import type { FastifyInstance } from "fastify";
import type { ServerState } from "./context";

export function registerEventFeed(app: FastifyInstance, state: ServerState): void {
  void app;
  void state;
}
