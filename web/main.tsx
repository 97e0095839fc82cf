import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/web/app/app";
import "@/web/styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
