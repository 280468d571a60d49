// Placeholder until the search box is built.
export function SearchBox() {
  return null;
}
