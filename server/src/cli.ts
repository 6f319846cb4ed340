/** The `terrace` command line: the same engine the editor runs. */
function main(argv: string[]): number {
  const [command] = argv;
  process.stderr.write(`terrace: '${command ?? ''}' is not available yet\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
