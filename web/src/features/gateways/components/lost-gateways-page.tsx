// Placeholder until this screen is built.
export default function LostGatewaysPage() {
  return <h1>LostGatewaysPage</h1>;
}
