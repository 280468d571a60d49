// Placeholder until this screen is built.
export default function SearchResultsPage() {
  return <h1>SearchResultsPage</h1>;
}
