import { PlaceholderPage } from "@/web/components/placeholder-page";

export default function AnalyticsPage() {
  return (
    <PlaceholderPage
      title="Analytics"
      description="Track your financial performance and spending patterns. Charts are on their way."
    />
  );
}
