// The fenced code blocks of a Markdown page, with the line each starts on and the examples/ file it claims to
// show (an `<!-- include: examples/x.ts -->` line just before the fence).

/** One fenced block of a Markdown page. */
export interface CodeBlock {
  /** The page, as given (for messages). */
  page: string;
  /** The info string's first word: `ts`, `sh`, `text`, … (`''` when there is none). */
  lang: string;
  /** The info string's other words, e.g. `fragment` in ` ```ts fragment`. */
  flags: string[];
  /** The block's text, without its fences. */
  code: string;
  /** 1-based line of the block's first line of code. */
  line: number;
  /** The repository file an `include` marker says this block shows, if any. */
  include: string | undefined;
  /** The three lines after the closing fence (where a fragment links its runnable program). */
  after: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)([^`]*)$/;
const INCLUDE = /^<!--\s*include:\s*(\S+)\s*-->$/;

/** Every fenced block of `markdown`; throws for a fence that is never closed. */
export function codeBlocks(page: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] ?? '```';
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').trimStart().startsWith(fence)) end += 1;
    if (end >= lines.length) throw new Error(`${page}:${i + 1}: a code fence that is never closed`);
    let before = i - 1;
    while (before >= 0 && (lines[before] ?? '').trim() === '') before -= 1;
    const include = INCLUDE.exec((lines[before] ?? '').trim())?.[1];
    const flags = (open[3] ?? '').trim().split(/\s+/).filter(Boolean);
    blocks.push({ page, lang: open[2] ?? '', flags, code: lines.slice(start, end).join('\n'), line: start + 1, include, after: lines.slice(end + 1, end + 4).join('\n') });
    i = end;
  }
  return blocks;
}
