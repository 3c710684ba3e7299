/** `privnet-server sim ...`: drives the simulated agent of a running server. */
export async function simMain(argv: string[]): Promise<number> {
  process.stderr.write(`privnet-server sim: not available yet (${argv.join(" ")})\n`);
  return 2;
}
