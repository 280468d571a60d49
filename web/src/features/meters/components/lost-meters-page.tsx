// Placeholder until this screen is built.
export default function LostMetersPage() {
  return <h1>LostMetersPage</h1>;
}
