/**
 * The README's runnable examples, as a script: the ```bash blocks whose first line is MARKER, in
 * the README's order, run in one bash session as a reader's terminal would run them.
 *
 * - `#   → <expected>` right after a command is what the command prints: the text up to the first
 *   run of two spaces (what follows is commentary), `…` standing for any text. The script marks
 *   the command's output on stdout so the test can compare it.
 * - `# In a browser: <what to do>` is a step a person does in a browser: the script asks the test
 *   (on fd 3) to do it, passing the values of the `$VARIABLES` the step names, and waits on stdin.
 * - Every curl that fails (an HTTP error included) is reported on fd 3 and stops the script.
 */
export const MARKER = '# Runs as written in test/e2e/readme/readme-examples.e2e.spec.ts';

export interface ReadmeBlock {
  /** The `## ` heading the block is under. */
  section: string;
  /** 1-based README line of the block's first line (the marker). */
  line: number;
  lines: string[];
}

export interface Expectation {
  id: number;
  section: string;
  /** 1-based README line of the `→` comment. */
  line: number;
  /** The command whose output it describes, as written. */
  command: string;
  pattern: string;
}

export interface BrowserStep {
  id: number;
  section: string;
  line: number;
  text: string;
  /** The `$VARIABLES` the step names, in order: the script passes their values. */
  variables: string[];
}

export interface ReadmeScript {
  script: string;
  expectations: Expectation[];
  steps: BrowserStep[];
}

const ARROW = /^#\s+→ (.*)$/;
const BROWSER = /^# In a browser: (.+)$/;

/** The marked ```bash blocks; a marker anywhere but on a bash block's first line is an error. */
export function runnableBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (line.includes(MARKER) && lines[i - 1] !== '```bash') {
      throw new Error(`README line ${i + 1}: the marker must be the first line of a \`\`\`bash block`);
    }
    if (line !== '```bash' || lines[i + 1] !== MARKER) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`README line ${i + 1}: the block never ends`);
    blocks.push({ section, line: i + 2, lines: lines.slice(i + 1, end) });
    i = end;
  }
  return blocks;
}

/** The expected text of a `→` comment: up to two spaces in a row (commentary follows them). */
export function patternOf(arrowText: string): string {
  return arrowText.split(/ {2,}/)[0]!.trim();
}

/**
 * Whether `output` is `pattern` with each `…` standing for any text (possibly none): the pieces
 * between the `…`s appear in order, the first at the start and the last at the end.
 */
export function matchesPattern(pattern: string, output: string): boolean {
  const pieces = pattern.split('…');
  if (pieces.length === 1) return output === pattern;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!output.startsWith(first)) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = output.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return output.length - last.length >= at && output.endsWith(last);
}

const PREAMBLE = String.raw`set -eo pipefail
shopt -s inherit_errexit
# A failed request (HTTP 4xx or 5xx too) is reported to the test, which stops the script.
curl() {
  command curl -q --fail-with-body --show-error --max-time 30 "$@" || {
    local status=$?
    printf 'curl-failed\t%s\t%s\n' "$status" "$*" >&3
    return "$status"
  }
}
# A browser step: the test does it with the values given, and answers "ok" or why not.
__browser() {
  local answer
  printf 'browser' >&3
  printf '\t%s' "$@" >&3
  printf '\n' >&3
  read -r answer
  if [ "$answer" != ok ]; then
    printf 'browser step %s: %s\n' "$1" "$answer" >&2
    exit 1
  fi
}
`;

/** The blocks as one bash script, with the output markers and browser steps in place. */
export function scriptOf(blocks: ReadmeBlock[]): ReadmeScript {
  const out: string[] = [PREAMBLE];
  const expectations: Expectation[] = [];
  const steps: BrowserStep[] = [];
  for (const block of blocks) {
    out.push(`printf 'block\\t%s\\n' ${shellQuote(block.section)} >&3`);
    const { lines } = block;
    // The output index in `out` where each README line's statement starts, to wrap it later.
    const emitted: number[] = [];
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i]!;
      const readmeLine = block.line + i;
      const arrow = ARROW.exec(line);
      const browser = BROWSER.exec(line);
      if (arrow) {
        const previous = lines[i - 1];
        if (previous === undefined || previous.trimStart().startsWith('#') || previous.trim() === '') {
          throw new Error(`README line ${readmeLine}: an → line must follow the command it describes`);
        }
        let start = i - 1;
        while (start > 0 && lines[start - 1]!.endsWith('\\')) start -= 1;
        const id = expectations.length;
        expectations.push({
          id,
          section: block.section,
          line: readmeLine,
          command: lines.slice(start, i).join('\n'),
          pattern: patternOf(arrow[1]!),
        });
        out.splice(emitted[start]!, 0, `printf '\\n@@begin ${id}\\n'`);
        out.push(`printf '\\n@@end ${id}\\n'`);
        emitted.push(out.length);
        continue;
      }
      emitted.push(out.length);
      if (browser) {
        const text = browser[1]!.trim();
        const variables = [...text.matchAll(/\$([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!);
        const id = steps.length;
        steps.push({ id, section: block.section, line: readmeLine, text, variables });
        out.push(`__browser ${id} ${variables.map((name) => `"$${name}"`).join(' ')}`);
        continue;
      }
      out.push(line);
    }
  }
  out.push(`printf 'done\\n' >&3`);
  return { script: `${out.join('\n')}\n`, expectations, steps };
}

/** What each marked command printed, by expectation id, from the script's stdout. */
export function outputsOf(stdout: string): Map<number, string> {
  const outputs = new Map<number, string>();
  for (const match of stdout.matchAll(/\n@@begin (\d+)\n([\s\S]*?)\n@@end \1\n/g)) {
    outputs.set(Number(match[1]), match[2]!.trim());
  }
  return outputs;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
