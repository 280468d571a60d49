// Placeholder until this screen is built.
export default function MeterRegistrationPage() {
  return <h1>MeterRegistrationPage</h1>;
}
