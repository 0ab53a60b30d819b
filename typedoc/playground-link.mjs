// @ts-check
/**
 * A TypeDoc plugin: the site's landing page (README.md) links the playground, the page
 * `npm run docs` builds into the site after TypeDoc (scripts/build-playground.ts writes
 * docs/api/playground/index.html, next to the landing page).
 *
 * Why a plugin: the README is also the repository's and the package's front page, where the built
 * site does not exist (docs/api is not committed), and TypeDoc resolves a relative link in the
 * README against the repository (`playground/index.html` there is the page's source). So the
 * README links the guide (docs/playground.md), and this adds the link to the built page to the
 * site's copy of the README only, after its first paragraph, once TypeDoc has resolved the README's
 * own links.
 */
import { Converter } from 'typedoc';

const LINE =
  '**Play in your browser:** the [playground](playground/index.html) plays classic with any expansions, or The Castle, hot-seat or against the bots, built from this library (no server needed).';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const readme = context.project.readme;
    if (readme === undefined) return;
    // After the first paragraph that is not a heading (a paragraph may span parts: links are parts of their own).
    let seenContent = false;
    for (const part of readme) {
      if (part.kind !== 'text' && part.kind !== 'code') {
        seenContent = true;
        continue;
      }
      if (part.kind === 'code') continue;
      let pos = 0;
      for (;;) {
        const end = part.text.indexOf('\n\n', pos);
        const segment = part.text.slice(pos, end < 0 ? part.text.length : end);
        if (segment.trim() !== '' && !segment.trimStart().startsWith('#')) seenContent = true;
        if (end < 0) break;
        if (seenContent) {
          part.text = `${part.text.slice(0, end)}\n\n${LINE}${part.text.slice(end)}`;
          return;
        }
        pos = end + 2;
      }
    }
    readme.push({ kind: 'text', text: `\n\n${LINE}\n` });
  });
}
