/**
 * `heed completion bash|zsh|fish`: a completion script made from the command line's own
 * definition, so that it names every command, sub-command and option there is.
 */
import type { Command } from "commander";
import { commandPath } from "./help-examples.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

interface Entry {
  /** "" for heed itself, else "sitemap build". */
  readonly path: string;
  readonly subcommands: readonly string[];
  readonly options: readonly string[];
  /** Options that take a value: the value's choices, or null (a file name, or free text). */
  readonly values: ReadonlyMap<string, readonly string[] | null>;
}

function entries(program: Command): Entry[] {
  const out: Entry[] = [];
  const walk = (command: Command): void => {
    out.push({
      path: command === program ? "" : commandPath(command),
      subcommands: command.commands.map((c) => c.name()),
      options: [...command.options.map((o) => o.long ?? ""), "--help"].filter((o) => o !== ""),
      values: new Map(
        command.options
          .filter((o) => o.long !== undefined && (o.required || o.optional))
          .map((o) => [o.long as string, o.argChoices ?? null]),
      ),
    });
    for (const sub of command.commands) walk(sub);
  };
  walk(program);
  return out;
}

export function completionScript(program: Command, shell: Shell): string {
  const all = entries(program);
  return shell === "fish" ? fish(all) : bash(all, shell === "zsh");
}

function bash(all: readonly Entry[], zsh: boolean): string {
  const cases = all
    .map((e) => `    "${e.path}") words="${[...e.subcommands, ...e.options].join(" ")}" ;;`)
    .join("\n");
  // After an option that takes a value: its choices, else file names (never option names).
  const valueCases = all.flatMap((e) =>
    [...e.values].map(([option, choices]) =>
      choices === null
        ? `    "${e.path}:${option}") COMPREPLY=($(compgen -f -- "$cur")); return ;;`
        : `    "${e.path}:${option}") COMPREPLY=($(compgen -W "${choices.join(" ")}" -- "$cur")); return ;;`,
    ),
  );
  const lines = [
    "# heed completion (bash). Made by: heed completion " + (zsh ? "zsh" : "bash"),
    ...(zsh ? ["autoload -U +X bashcompinit && bashcompinit"] : []),
    "_heed() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" word i',
    "  # The command path: the words before the cursor that name commands, not options.",
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    '    word="${COMP_WORDS[i]}"',
    '    case "$word" in -*) continue ;; esac',
    '    case " $(_heed_subcommands "$cmdpath") " in',
    '      *" $word "*) cmdpath="${cmdpath:+$cmdpath }$word" ;;',
    "    esac",
    "  done",
    '  case "$cmdpath:$prev" in',
    ...valueCases,
    "  esac",
    "  local words",
    '  case "$cmdpath" in',
    cases,
    '    *) words="" ;;',
    "  esac",
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '  [ ${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- "$cur"))',
    "}",
    "_heed_subcommands() {",
    '  case "$1" in',
    ...all
      .filter((e) => e.subcommands.length > 0)
      .map((e) => `    "${e.path}") echo "${e.subcommands.join(" ")}" ;;`),
    "  esac",
    "}",
    "complete -F _heed heed",
    "",
  ];
  return lines.join("\n");
}

function fish(all: readonly Entry[]): string {
  const lines = ["# heed completion (fish). Made by: heed completion fish", "complete -c heed -f"];
  for (const e of all) {
    const words = e.path === "" ? [] : e.path.split(" ");
    const seen =
      words.length === 0
        ? "__fish_use_subcommand"
        : words.map((w) => `__fish_seen_subcommand_from ${w}`).join("; and ");
    for (const sub of e.subcommands) lines.push(`complete -c heed -n '${seen}' -a ${sub}`);
    for (const option of e.options) {
      const choices = e.values.get(option);
      const value =
        choices === undefined ? "" : choices === null ? " -r -F" : ` -x -a '${choices.join(" ")}'`;
      lines.push(`complete -c heed -n '${seen}' -l ${option.replace(/^--/, "")}${value}`);
    }
    if (words.length > 0) lines.push(`complete -c heed -n '${seen}' -F`);
  }
  lines.push("");
  return lines.join("\n");
}
