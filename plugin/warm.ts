/**
 * The one signal between the plugin's server and its boot module (plugin/boot.ts): the server emits it on `process`
 * once it has answered its first resource call, when the code cache boot.ts keeps is worth taking.
 */
export const WARM_EVENT = "privnet:plugin-warm";

let warm = false;

/** Says (once per process) that a resource call was served. */
export function served(): void {
  if (warm) return;
  warm = true;
  (process as NodeJS.EventEmitter).emit(WARM_EVENT);
}
