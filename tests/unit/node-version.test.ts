test("the suite runs on Node >= 22 (current Pulumi needs it)", () => {
  const major = Number(process.versions.node.split(".")[0]);
  process.stdout.write(`node-version: running on Node ${process.version}\n`);
  expect(major).toBeGreaterThanOrEqual(22);
});
