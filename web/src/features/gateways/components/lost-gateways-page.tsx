// Lost gateways (spec §2): 'Lost Gateways (n)', start date, gray-dotted cards, Load More.
import { GatewayListScreen } from './gateway-list-screen.tsx';

export default function LostGatewaysPage() {
  return <GatewayListScreen kind="lost" />;
}
