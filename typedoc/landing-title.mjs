// @ts-check
/**
 * A TypeDoc plugin: the landing page (README.md) shows the project's title once.
 *
 * Why it is needed: TypeDoc's index page already heads the README with the project's name, so the
 * README's own first heading (`# meeplekit`, which GitHub and npm need) showed the title twice.
 * This removes that first heading from the site's copy of the README only, and only when it is
 * the project's name: any other opening heading is kept.
 */
import { Converter } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const readme = context.project.readme;
    const first = readme?.[0];
    if (first === undefined || first.kind !== 'text') return;
    const heading = /^\s*#[ \t]+(.+?)[ \t]*\r?\n/.exec(first.text);
    if (heading === null || heading[1] !== context.project.name) return;
    first.text = first.text.slice(heading[0].length);
  });
}
