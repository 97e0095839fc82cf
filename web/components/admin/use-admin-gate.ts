import { useEffect } from "react";
import { useLocation } from "wouter";
import { toast } from "@/web/components/ui/use-toast";

/** The admin redirect happens after 500 ms. */
const REDIRECT_DELAY_MS = 500;

/**
 * The admin gate (/admin and the content editor): non-admins see a toast and go home after 500 ms. The server refuses
 * them too; this only keeps them from an editor that cannot load.
 */
export function useAdminGate(isAdmin: boolean) {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (isAdmin) return;
    toast({
      title: "Unauthorized",
      description: "You don't have permission to access this page.",
      variant: "destructive",
    });
    const timer = setTimeout(() => navigate("/"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isAdmin, navigate]);
}
