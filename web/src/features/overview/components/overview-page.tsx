// Placeholder until this screen is built.
export default function OverviewPage() {
  return <h1>OverviewPage</h1>;
}
