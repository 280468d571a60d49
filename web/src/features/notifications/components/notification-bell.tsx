// Placeholder until the bell is built.
export function NotificationBell() {
  return null;
}
