// Placeholder until this screen is built.
export default function MeterDetailPage() {
  return <h1>MeterDetailPage</h1>;
}
