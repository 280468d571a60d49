// The item at `index`, or a failed test naming the index: for assertions on
// one row of a table without non-null assertions.
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`there is no item ${String(index)} among ${String(items.length)}`);
  return item;
}
