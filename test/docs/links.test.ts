// The README and docs/ link to each other and to examples/ by relative paths and heading anchors: every such link
// must land on a file of the repository and, with `#anchor`, on a heading of that page (GitHub's anchors).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchor(m[1] ?? '')));
}

/** Relative links of a page: `[text](path)`, `[text](path#anchor)`, `[text](#anchor)`. */
function linksOf(page: string): Array<{ path: string; hash: string | undefined }> {
  const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? '')
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [file = '', hash] = href.split('#');
      return { path: file === '' ? page : normalize(relative(root, join(root, dirname(page), file))), hash };
    });
}

describe('links in the README and docs/', () => {
  it('every relative link lands on a file of the repository, and every #anchor on a heading of its page', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const { path, hash } of linksOf(page)) {
        if (!existsSync(join(root, path))) broken.push(`${page} → ${path} (no such file)`);
        else if (hash !== undefined && path.endsWith('.md') && !anchorsOf(path).has(hash)) broken.push(`${page} → ${path}#${hash} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README leads to every guide in docs/', () => {
    const linked = new Set(linksOf('README.md').map((l) => l.path));
    expect(pages.filter((p) => p.startsWith('docs/') && !linked.has(p))).toEqual([]);
  });
});
