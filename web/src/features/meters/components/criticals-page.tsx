// Placeholder until this screen is built.
export default function CriticalsPage() {
  return <h1>CriticalsPage</h1>;
}
