// Type-checks the `ts` blocks of the docs as a reader's own files would be: each block one ES module of a
// project that depends on the package, compiled together in one TypeScript program against the package's
// built types (`import … from 'a2a-resilient'` resolves, through the package's own `exports`, to dist/).
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './markdown-blocks.js';
import { READER_NAMES } from './reader-names.js';

/** One compiler error, placed in the Markdown page. */
export interface BlockError {
  /** `page:line`, the line in the Markdown page. */
  at: string;
  message: string;
}

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
};

/**
 * Compiles every block in one program; resolves with the errors, each placed at its page and line.
 * `root` is the package's directory (its package.json names it, so the package imports itself).
 */
export function compileBlocks(root: string, blocks: readonly CodeBlock[]): BlockError[] {
  const dir = join(root, 'docs', '__blocks__');
  const files = new Map<string, { text: string; block: CodeBlock | undefined }>();
  files.set(join(dir, 'reader-names.d.ts'), { text: READER_NAMES, block: undefined });
  blocks.forEach((block, i) => files.set(join(dir, `block-${i}.ts`), { text: block.code, block }));

  const host = ts.createCompilerHost(OPTIONS, true);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
  host.directoryExists = (name) => name === dir || (directoryExists?.call(host, name) ?? true);
  host.getSourceFile = (name, version, onError, create) => {
    const file = files.get(name);
    return file ? ts.createSourceFile(name, file.text, version) : getSourceFile.call(host, name, version, onError, create);
  };
  host.getCurrentDirectory = () => root;

  const program = ts.createProgram({ rootNames: [...files.keys()], options: OPTIONS, host });
  const errors: BlockError[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file ? files.get(diagnostic.file.fileName) : undefined;
    if (!diagnostic.file || file === undefined) {
      errors.push({ at: diagnostic.file ? relative(root, diagnostic.file.fileName) : 'compiler', message });
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const at = file.block ? `${file.block.page}:${file.block.line + line}` : `${relative(root, dirname(diagnostic.file.fileName))}/reader-names.d.ts:${line + 1}`;
    errors.push({ at, message });
  }
  return errors;
}
