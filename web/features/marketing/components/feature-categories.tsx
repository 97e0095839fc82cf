import {
  Activity,
  ArrowDownLeft,
  BadgeCheck,
  ChartPie,
  Gauge,
  Headset,
  History,
  IdCard,
  Landmark,
  LifeBuoy,
  Mail,
  MessageCircle,
  Percent,
  PiggyBank,
  Send,
  ShieldCheck,
  Smartphone,
  Wrench,
} from "lucide-react";
import type { ReactNode } from "react";
import { BRAND } from "@/contract/brand";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";

type CategoryItem = { title: string; description: string; icon: ReactNode };
type Category = { value: string; label: string; icon: ReactNode; items: CategoryItem[] };

const CATEGORIES: Category[] = [
  {
    value: "payments",
    label: "Payments",
    icon: <Send aria-hidden />,
    items: [
      {
        title: "Instant USDC transfers",
        description: "Send money out in minutes. One US dollar always equals one USDC.",
        icon: <Send aria-hidden />,
      },
      {
        title: "One flat 2% fee",
        description: "The fee and the amount that arrives are shown before you confirm.",
        icon: <Percent aria-hidden />,
      },
      {
        title: "$2,000 daily limit",
        description: "A daily transfer limit that protects your account from mistakes and fraud.",
        icon: <Gauge aria-hidden />,
      },
      {
        title: "Free incoming payments",
        description: "Money sent to your account lands without a fee.",
        icon: <ArrowDownLeft aria-hidden />,
      },
    ],
  },
  {
    value: "savings",
    label: "Savings",
    icon: <PiggyBank aria-hidden />,
    items: [
      {
        title: "2.5% APY",
        description: "Earn 2.5% APY on your savings, with no monthly fees eating into it.",
        icon: <PiggyBank aria-hidden />,
      },
      {
        title: "FDIC insurance",
        description: "Your deposits are protected up to $250,000.",
        icon: <ShieldCheck aria-hidden />,
      },
      {
        title: "Free checking account",
        description: "Your own account and routing numbers, opened online in minutes.",
        icon: <Landmark aria-hidden />,
      },
      {
        title: "No hidden fees",
        description: "No monthly maintenance fees and no surprise charges.",
        icon: <BadgeCheck aria-hidden />,
      },
    ],
  },
  {
    value: "tools",
    label: "Tools",
    icon: <Wrench aria-hidden />,
    items: [
      {
        title: "Analytics dashboard",
        description: "Spending by category and money in against money out, in one view.",
        icon: <ChartPie aria-hidden />,
      },
      {
        title: "Real-time tracking",
        description: "Every transaction appears as it happens, with its status.",
        icon: <Activity aria-hidden />,
      },
      {
        title: "Balance history",
        description: "See how your balance moved across your recent transactions.",
        icon: <History aria-hidden />,
      },
      {
        title: "Mobile banking",
        description: "Manage your account, phone number and password from any device.",
        icon: <Smartphone aria-hidden />,
      },
    ],
  },
  {
    value: "support",
    label: "Support",
    icon: <LifeBuoy aria-hidden />,
    items: [
      {
        title: "24/7 support",
        description: "Reach our team at any hour, on any day.",
        icon: <Headset aria-hidden />,
      },
      {
        title: "In-app chat",
        description: "Chat with support directly from your account.",
        icon: <MessageCircle aria-hidden />,
      },
      {
        title: "E-mail support",
        description: `Write to ${BRAND.supportEmail} and we will get back to you.`,
        icon: <Mail aria-hidden />,
      },
      {
        title: "Verification help",
        description: "Guidance through identity checks. Most reviews finish within 24 hours.",
        icon: <IdCard aria-hidden />,
      },
    ],
  },
];

export function FeatureCategories() {
  return (
    <Tabs defaultValue="payments" className="mt-10 flex flex-col items-center">
      <TabsList aria-label="Feature categories">
        {CATEGORIES.map((category) => (
          <TabsTrigger key={category.value} value={category.value} className="px-3 sm:px-4">
            <span className="hidden sm:contents">{category.icon}</span>
            {category.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {CATEGORIES.map((category) => (
        <TabsContent key={category.value} value={category.value} className="mt-8 w-full">
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {category.items.map((item) => (
              <li
                key={item.title}
                className="flex h-full flex-col gap-3 rounded-card border border-line bg-surface p-5 shadow-card"
              >
                <span className="flex size-9 items-center justify-center rounded-lg bg-brand-50 text-brand-700 [&_svg]:size-4">
                  {item.icon}
                </span>
                <h3 className="text-base font-semibold text-ink">{item.title}</h3>
                <p className="text-sm leading-6 text-ink-muted">{item.description}</p>
              </li>
            ))}
          </ul>
        </TabsContent>
      ))}
    </Tabs>
  );
}
