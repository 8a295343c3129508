// Shell completion scripts for bash, zsh and fish, generated from the commander program tree itself (its visible
// commands, subcommands, options, option values and argument choices, as commander's own help lists them), so a script
// cannot name a command the program lacks or miss one it has. Invariant: every name written into a script is checked
// against a plain-name pattern, and every description or choice is quoted for its shell, so no text becomes shell code.
import type { Command, Option } from 'commander';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** One option as completion needs it. */
interface OptionNode {
  /** `--db`, `-V`: every spelling. */
  readonly flags: readonly string[];
  readonly description: string;
  readonly takesValue: boolean;
  readonly choices: readonly string[];
}

/** One command of the tree: its path from the program, what may follow it. */
interface CommandNode {
  /** `withdraw approve`; '' for the program itself. */
  readonly path: string;
  readonly subcommands: readonly { readonly name: string; readonly description: string }[];
  readonly options: readonly OptionNode[];
  /** Option spellings that take a value here, the ancestors' included (commander reads those anywhere after them). */
  readonly valueFlags: readonly string[];
  /** For each positional argument, its choices (empty: any text, completed as a file name). */
  readonly argumentChoices: readonly (readonly string[])[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const FLAG = /^--?[A-Za-z0-9][A-Za-z0-9-]*$/;

function checked(text: string, pattern: RegExp, what: string): string {
  if (!pattern.test(text)) throw new Error(`completion: the ${what} "${text}" is not a plain name`);
  return text;
}

/** The first sentence of a description, at most 80 characters, on one line. */
function shortDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const first = (line.split(/(?<=[.;:])\s/)[0] ?? line).replace(/[.;:,]$/, '');
  return first.length <= 80 ? first : `${first.slice(0, 79)}…`;
}

function optionNode(option: Option): OptionNode {
  const flags = [option.long, option.short].filter((flag): flag is string => flag !== undefined).map((flag) => checked(flag, FLAG, 'option'));
  return { flags, description: shortDescription(option.description), takesValue: option.required || option.optional, choices: option.argChoices ?? [] };
}

/** Every command of the tree, the program first, in the order help lists them. */
export function completionTree(program: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const visit = (command: Command, path: string, inheritedValueFlags: readonly string[]): void => {
    const help = command.createHelp();
    const options = help.visibleOptions(command).map(optionNode);
    const valueFlags = [...new Set([...inheritedValueFlags, ...options.filter((option) => option.takesValue).flatMap((option) => option.flags)])];
    const subcommands = help.visibleCommands(command);
    nodes.push({
      path,
      subcommands: subcommands.map((sub) => ({ name: checked(sub.name(), NAME, 'command'), description: shortDescription(sub.summary() || sub.description()) })),
      options,
      valueFlags,
      argumentChoices: command.registeredArguments.map((argument) => argument.argChoices ?? []),
    });
    for (const sub of subcommands) {
      // The implicit `help` command (listed by help, not among the commands) has nothing below it.
      if (command.commands.includes(sub)) visit(sub, path === '' ? sub.name() : `${path} ${sub.name()}`, valueFlags);
    }
  };
  visit(program, '', []);
  return nodes;
}

/** A single-quoted word for bash and zsh: `it's` → `'it'\''s'`. */
function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A single-quoted word for fish, where only \\ and \' are escapes. */
function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (character) => `\\${character}`)}'`;
}

/** The choices keys: `PATH|--flag` for an option's value, `PATH|#N` for the Nth positional argument. */
function choiceEntries(nodes: readonly CommandNode[]): { readonly key: string; readonly choices: readonly string[] }[] {
  return nodes.flatMap((node) => [
    ...node.options.filter((option) => option.takesValue && option.choices.length > 0).flatMap((option) => option.flags.map((flag) => ({ key: `${node.path}|${flag}`, choices: option.choices }))),
    ...node.argumentChoices.flatMap((choices, index) => (choices.length > 0 ? [{ key: `${node.path}|#${index}`, choices }] : [])),
  ]);
}

function header(program: Command, version: string, comment: string): string {
  return `${comment} Shell completion for ${program.name()} ${version}, generated from its command tree by "${program.name()} completion".\n`;
}

function bashScript(program: Command, nodes: readonly CommandNode[], version: string): string {
  const name = program.name();
  const fn = `_${name.replace(/-/g, '_')}`;
  const words = (list: readonly string[]): string => `(${list.map(posixQuote).join(' ')})`;
  const cases = nodes
    .map((node) => {
      const subs = words(node.subcommands.map((sub) => sub.name));
      const opts = words(node.options.flatMap((option) => option.flags));
      return `    ${posixQuote(node.path)}) subs=${subs}; opts=${opts}; valopts=${words(node.valueFlags)} ;;`;
    })
    .join('\n');
  const choiceCases = choiceEntries(nodes)
    .map((entry) => `    ${posixQuote(entry.key)}) choices=${words(entry.choices)} ;;`)
    .join('\n');
  // Candidates are filtered by a plain prefix test, never by compgen -W, which would expand $(...) in a word.
  return `${header(program, version, '#')}
${fn}_node() {
  case "$1" in
${cases}
    *) subs=(); opts=(); valopts=() ;;
  esac
}

${fn}_choices() {
  case "$1" in
${choiceCases}
    *) return 1 ;;
  esac
}

${fn}_offer() {
  local word
  for word in "$@"; do
    if [[ "$word" == "$cur"* ]]; then COMPREPLY+=("$word"); fi
  done
}

${fn}_member() {
  local word="$1" each
  shift
  for each in "$@"; do
    if [[ "$each" == "$word" ]]; then return 0; fi
  done
  return 1
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath='' word value_of='' i args=0
  local -a subs opts valopts choices
  ${fn}_node ''
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ -n "$value_of" ]]; then value_of=''; continue; fi
    if [[ "$word" == -* ]]; then
      if [[ "$word" != *=* ]] && ${fn}_member "$word" "\${valopts[@]}"; then value_of="$word"; fi
      continue
    fi
    if ${fn}_member "$word" "\${subs[@]}"; then
      cmdpath="\${cmdpath:+$cmdpath }$word"
      args=0
      ${fn}_node "$cmdpath"
    else
      args=$((args + 1))
    fi
  done
  COMPREPLY=()
  if [[ -n "$value_of" ]]; then
    if ${fn}_choices "$cmdpath|$value_of"; then ${fn}_offer "\${choices[@]}"; else local IFS=$'\\n'; COMPREPLY=($(compgen -f -- "$cur")); fi
  elif [[ "$cur" == -* ]]; then
    ${fn}_offer "\${opts[@]}"
  elif (( \${#subs[@]} )); then
    ${fn}_offer "\${subs[@]}"
  elif ${fn}_choices "$cmdpath|#$args"; then
    ${fn}_offer "\${choices[@]}"
  else
    local IFS=$'\\n'
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}

complete -o filenames -F ${fn} ${name}
`;
}

function zshScript(program: Command, nodes: readonly CommandNode[], version: string): string {
  const name = program.name();
  const fn = `_${name.replace(/-/g, '_')}`;
  const described = (entries: readonly (readonly [string, string])[]): string => entries.map(([word, description]) => posixQuote(`${word}:${description.replace(/:/g, '\\:')}`)).join(' ');
  const cases = nodes
    .map((node) => {
      const subs = described(node.subcommands.map((sub) => [sub.name, sub.description] as const));
      const opts = described(node.options.flatMap((option) => option.flags.map((flag) => [flag, option.description] as const)));
      return `    ${posixQuote(node.path)}) subs=(${subs}); opts=(${opts}); valopts=(${node.valueFlags.map(posixQuote).join(' ')}) ;;`;
    })
    .join('\n');
  const choiceCases = choiceEntries(nodes)
    .map((entry) => `    ${posixQuote(entry.key)}) choices=(${entry.choices.map(posixQuote).join(' ')}) ;;`)
    .join('\n');
  return `#compdef ${name}
${header(program, version, '#')}
${fn}_node() {
  case "$1" in
${cases}
    *) subs=(); opts=(); valopts=() ;;
  esac
}

${fn}_choices() {
  case "$1" in
${choiceCases}
    *) return 1 ;;
  esac
}

${fn}() {
  local cmdpath='' word value_of='' i args=0
  local -a subs opts valopts choices names
  ${fn}_node ''
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if [[ -n $value_of ]]; then value_of=''; continue; fi
    if [[ $word == -* ]]; then
      if [[ $word != *=* ]] && (( \${valopts[(Ie)$word]} )); then value_of=$word; fi
      continue
    fi
    names=(\${subs%%:*})
    if (( \${names[(Ie)$word]} )); then
      cmdpath=\${cmdpath:+$cmdpath }$word
      args=0
      ${fn}_node "$cmdpath"
    else
      (( args++ ))
    fi
  done
  if [[ -n $value_of ]]; then
    if ${fn}_choices "$cmdpath|$value_of"; then compadd -a choices; else _files; fi
  elif [[ \${words[CURRENT]} == -* ]]; then
    _describe -t options option opts
  elif (( \${#subs} )); then
    _describe -t commands command subs
  elif ${fn}_choices "$cmdpath|#$args"; then
    compadd -a choices
  else
    _files
  fi
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${name}
fi
`;
}

function fishScript(program: Command, nodes: readonly CommandNode[], version: string): string {
  const name = program.name();
  const fn = `__${name.replace(/-/g, '_')}`;
  const printed = (entries: readonly (readonly [string, string])[]): string =>
    entries.length === 0 ? 'true' : `printf '%s\\t%s\\n' ${entries.map(([word, description]) => `${fishQuote(word)} ${fishQuote(description)}`).join(' ')}`;
  const caseOf = (node: CommandNode, body: string): string => `        case ${fishQuote(node.path)}\n            ${body}`;
  const subCases = nodes.map((node) => caseOf(node, printed(node.subcommands.map((sub) => [sub.name, sub.description] as const)))).join('\n');
  const optCases = nodes.map((node) => caseOf(node, printed(node.options.flatMap((option) => option.flags.map((flag) => [flag, option.description] as const))))).join('\n');
  const valCases = nodes.map((node) => caseOf(node, node.valueFlags.length === 0 ? 'true' : `printf '%s\\n' ${node.valueFlags.map(fishQuote).join(' ')}`)).join('\n');
  const choiceCases = choiceEntries(nodes)
    .map((entry) => `        case ${fishQuote(entry.key)}\n            printf '%s\\n' ${entry.choices.map(fishQuote).join(' ')}`)
    .join('\n');
  return `${header(program, version, '#')}
function ${fn}_subcommands --argument-names cmdpath
    switch $cmdpath
${subCases}
    end
end

function ${fn}_options --argument-names cmdpath
    switch $cmdpath
${optCases}
    end
end

function ${fn}_value_options --argument-names cmdpath
    switch $cmdpath
${valCases}
    end
end

function ${fn}_choices --argument-names key
    switch $key
${choiceCases}
        case '*'
            return 1
    end
end

function ${fn}_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -e tokens[1]
    set -l cmdpath ''
    set -l value_of ''
    set -l args 0
    for word in $tokens
        if test -n "$value_of"
            set value_of ''
            continue
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and contains -- $word (${fn}_value_options $cmdpath)
                set value_of $word
            end
            continue
        end
        if contains -- $word (${fn}_subcommands $cmdpath | string replace -r '\\t.*' '')
            set cmdpath (string trim -- "$cmdpath $word")
            set args 0
        else
            set args (math $args + 1)
        end
    end
    if test -n "$value_of"
        ${fn}_choices "$cmdpath|$value_of"; or __fish_complete_path $cur
        return
    end
    if string match -q -- '-*' $cur
        ${fn}_options $cmdpath
        return
    end
    set -l subcommands (${fn}_subcommands $cmdpath)
    if test (count $subcommands) -gt 0
        printf '%s\\n' $subcommands
        return
    end
    ${fn}_choices "$cmdpath|#$args"; or __fish_complete_path $cur
end

complete -c ${name} -f -a '(${fn}_complete)'
`;
}

/** The completion script for `shell`, from the whole tree of `program`. */
export function completionScript(program: Command, shell: CompletionShell, version: string): string {
  checked(program.name(), NAME, 'program');
  const nodes = completionTree(program);
  switch (shell) {
    case 'bash':
      return bashScript(program, nodes, version);
    case 'zsh':
      return zshScript(program, nodes, version);
    case 'fish':
      return fishScript(program, nodes, version);
    default: {
      const unreachable: never = shell;
      return unreachable;
    }
  }
}
