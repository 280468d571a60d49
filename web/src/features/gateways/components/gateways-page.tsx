// Placeholder until this screen is built.
export default function GatewaysPage() {
  return <h1>GatewaysPage</h1>;
}
