import { PlaceholderPage } from "@/web/components/placeholder-page";

export default function SendMoneyPage() {
  return (
    <PlaceholderPage
      title="Send Money"
      description="Send USDC transfers from your Pillar account with a flat 2% fee. Transfers are on their way."
    />
  );
}
