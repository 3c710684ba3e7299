// Printed once per run so the test output shows which Node the suite ran on.
module.exports = async () => {
  process.stdout.write(`\ntests: Node ${process.version} (${process.execPath})\n`);
};
