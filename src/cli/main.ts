/**
 * The `heed` command line. Commands are plain functions that return an exit code; only
 * `bin.ts` calls `process.exit`.
 */
import { Command, CommanderError, Option } from "commander";
import { DIALECTS, type DialectChoice } from "../protocol/robots/index.js";
import { runCheck } from "./commands/check.js";
import { runDemo } from "./commands/demo.js";
import { runLint } from "./commands/lint.js";
import { CliError, EXIT_BAD_INPUT, EXIT_OK } from "./errors.js";
import type { Io } from "./io.js";
import { VERSION } from "./version.js";

const DIALECT_CHOICES: readonly DialectChoice[] = ["auto", ...DIALECTS];

function dialectOption(): Option {
  return new Option(
    "--dialect <dialect>",
    "which rules apply: auto picks by the file's Robot-version line",
  )
    .choices(DIALECT_CHOICES)
    .default("auto");
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("heed")
    .description(
      "robots-control protocols for robots and for sites: robots.txt (Koster 1996, RFC 9309, REGP 3.0) and more",
    )
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError("(run with --help for usage)");

  program
    .command("check")
    .description(
      "answer whether robots may fetch URLs. Exit 0: all allowed; 1: one is not; 2: bad input",
    )
    .argument("[robots]", "robots.txt file, http(s) URL, or - for standard input")
    .option("--agent <name>", "the robot's name token or User-Agent header")
    .option("--url <url>", "URL to check (repeatable)", collect, [])
    .option(
      "--queries <file>",
      "one query a line: agent<TAB>url[<TAB>ip<TAB>time]; - for standard input",
    )
    .option("--batch <file>", "one query a line: robots-file<TAB>agent<TAB>url[<TAB>ip<TAB>time]")
    .addOption(dialectOption())
    .option("--ip <addr>", "the robot's IP address (REGP Ip-allow/Ip-disallow)")
    .option(
      "--at <rfc3339>",
      'the moment of the visit, or "now" (REGP Visit-time/Time-forbidden; without it, time windows refuse nothing)',
    )
    .option(
      "--languages <list>",
      "languages the robot supports, e.g. en,fr (REGP Language; without it, no language is required)",
    )
    .option(
      "--encodings <list>",
      "content codings the robot supports, e.g. gzip,br (REGP Encoding)",
    )
    .option("--charsets <list>", "charsets the robot supports, e.g. utf-8 (REGP Charset)")
    .option("--json", "one JSON object a line", false)
    .action(async (robots: string | undefined, options) => {
      setExit(await runCheck(robots, options, io));
    });

  program
    .command("lint")
    .description(
      "find errors and warnings in a robots.txt. Exit 0: no errors; 1: errors; 2: bad input",
    )
    .argument("<robots>", "robots.txt file, http(s) URL, or - for standard input")
    .addOption(dialectOption())
    .option("--json", "one JSON object with every finding", false)
    .action(async (robots: string, options) => {
      setExit(await runLint(robots, options, io));
    });

  program
    .command("demo")
    .description("run the news-site experiment of the REGP paper (seeds/003 §5)")
    .option("--json", "print the results as one JSON object", false)
    .action(async (options) => {
      setExit(await runDemo(options, io));
    });

  return program;
}

/** Runs the command line; resolves to the exit code. Never exits the process itself. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code = EXIT_OK;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; anything else commander refuses is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof CliError) {
      io.stderr.write(`heed: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
