// Where Emotion's style tags go in the unit tests: out of the document,
// unless a test file checks a computed style. jsdom matches every rule of
// every stylesheet in the document against an element (and its ancestors,
// for inherited properties) each time a role query or the data grid asks
// for a computed style, and Emotion adds a tag per rule: that was a quarter
// of the unit tests' CPU time, growing with each test of a file. Without
// them a test still meets what a user does: text, roles, names, and the
// inline styles MUI's transitions hide and show with.

let inDocument = false;
let detached: HTMLElement | null = null;

/** For a test file that checks a computed style: call at its top level. */
export function keepStylesInDocument() {
  inDocument = true;
}

/** Sends Emotion's style tags to a detached element (setup-tests.ts). */
export function keepStylesOutOfDocument() {
  inDocument = false;
  if (detached) return;
  const sink = (detached = document.createElement('div'));
  const head = document.head;
  const insertIntoHead = head.insertBefore.bind(head);
  head.insertBefore = <T extends Node>(node: T, child: Node | null): T => {
    const emotion = node instanceof HTMLStyleElement && node.hasAttribute('data-emotion');
    const parent = emotion && !inDocument ? sink : head;
    return parent === head ? insertIntoHead(node, child?.parentNode === head ? child : null) : sink.insertBefore(node, child?.parentNode === sink ? child : null);
  };
}
