import { main } from './cli';

// The entry point of the bundled verify.mjs.
process.exitCode = main(process.argv.slice(2), process.env, (line) => console.log(line));
