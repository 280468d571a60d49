// Placeholder until the live indicator is built.
export function LiveIndicator() {
  return null;
}
