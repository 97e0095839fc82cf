import { describe, expect, it } from "vitest";
import { welcomeHeading } from "@/web/components/dashboard/welcome-heading";

describe("welcome heading", () => {
  it("greets with the first name after the spec's default title", () => {
    expect(welcomeHeading("Welcome back!", "Jane")).toBe("Welcome back, Jane!");
  });

  it("keeps an admin-set title that already names the customer, once", () => {
    expect(welcomeHeading("Good to see you, Jane", "Jane")).toBe("Good to see you, Jane");
    expect(welcomeHeading("Good to see you, Jane!", "Jane")).toBe("Good to see you, Jane!");
    expect(welcomeHeading("jane, your statement is ready", "Jane")).toBe("jane, your statement is ready");
  });

  it("adds the name to a title that does not name the customer, keeping its punctuation", () => {
    expect(welcomeHeading("Happy holidays!", "Jane")).toBe("Happy holidays, Jane!");
    expect(welcomeHeading("Good morning", "Jane")).toBe("Good morning, Jane!");
    expect(welcomeHeading("Ready to save?", "Jane")).toBe("Ready to save, Jane?");
    expect(welcomeHeading("Hello Janet", "Jane")).toBe("Hello Janet, Jane!");
  });

  it("treats a name with regex characters as text", () => {
    expect(welcomeHeading("Hi (A.J.)", "(A.J.)")).toBe("Hi (A.J.)");
  });
});
