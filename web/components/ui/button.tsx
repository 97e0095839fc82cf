import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/web/lib/cn";

export const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-lg text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        primary: "bg-brand-800 text-white shadow-sm hover:bg-brand-700",
        secondary: "border border-line bg-surface text-ink shadow-sm hover:bg-canvas",
        ghost: "text-ink-muted hover:bg-brand-50 hover:text-ink",
        link: "h-auto px-0 text-brand-600 underline-offset-4 hover:underline",
        destructive: "bg-negative text-white shadow-sm hover:bg-negative/90",
        inverse: "bg-white text-brand-800 shadow-sm hover:bg-brand-50 focus-visible:outline-white",
        "inverse-outline":
          "border border-white/40 text-white hover:border-white/70 hover:bg-white/10 focus-visible:outline-white",
      },
      size: {
        sm: "h-8 px-3",
        md: "h-10 px-4",
        lg: "h-12 px-6 text-base",
        icon: "size-10",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

export type ButtonProps = ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & { asChild?: boolean };

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      type={asChild ? undefined : (type ?? "button")}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}
