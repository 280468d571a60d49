// Where Emotion's style tags go in the unit tests: out of the document,
// unless a test file checks a computed style. jsdom matches every rule of
// every stylesheet in the document against an element (and its ancestors,
// for inherited properties) each time a role query or the data grid asks
// for a computed style, and Emotion adds a tag per rule: that was a quarter
// of the unit tests' CPU time, growing with each test of a file. Without
// them a test still meets text, roles and names, but not what a class
// hides (a closed Collapse is `visibility: hidden` by its class), so a file
// that checks what is visible or a computed style keeps them, and is listed
// as ISOLATED in vite.config.ts: its Emotion cache must start empty.

let inDocument = false;
let detached: HTMLElement | null = null;

/** For a test file that checks a computed style: call at its top level. */
export function keepStylesInDocument() {
  if (detached?.hasChildNodes()) {
    throw new Error('Emotion has already styled a component out of the document: list this file as ISOLATED');
  }
  inDocument = true;
}

/** Sends Emotion's style tags to a detached element (setup-tests.ts). */
export function keepStylesOutOfDocument() {
  inDocument = false;
  if (detached) return;
  const sink = (detached = document.createElement('div'));
  const head = document.head;
  head.insertBefore = <T extends Node>(node: T, child: Node | null): T => {
    const emotion = node instanceof HTMLStyleElement && node.hasAttribute('data-emotion');
    const parent = emotion && !inDocument ? sink : head;
    // Emotion inserts each tag before its last one's next sibling, which may
    // sit in the other parent: then at the end.
    return Node.prototype.insertBefore.call(parent, node, child?.parentNode === parent ? child : null) as T;
  };
}
