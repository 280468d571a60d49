// Placeholder until this screen is built.
export default function GatewayRegistrationPage() {
  return <h1>GatewayRegistrationPage</h1>;
}
