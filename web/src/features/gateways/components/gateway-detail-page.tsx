// Placeholder until this screen is built.
export default function GatewayDetailPage() {
  return <h1>GatewayDetailPage</h1>;
}
