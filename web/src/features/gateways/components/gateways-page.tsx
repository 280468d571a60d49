// The gateways list (spec §2): 'Gateways (n)', a start-date picker, cards and Load More.
import { GatewayListScreen } from './gateway-list-screen.tsx';

export default function GatewaysPage() {
  return <GatewayListScreen kind="all" />;
}
