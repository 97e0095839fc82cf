import { describe, expect, it } from "vitest";
import {
  passwordChangeCodeMail,
  passwordResetCodeMail,
  testCodeMail,
  verificationCodeMail,
} from "@/server/lib/mail/templates";

const CODE = "493817";

describe("mails that carry a one-time code", () => {
  it.each([
    ["verification", verificationCodeMail],
    ["password reset", passwordResetCodeMail],
    ["password change", passwordChangeCodeMail],
    ["test e-mail", testCodeMail],
  ])("keep the %s code out of the subject (lock screens show it) and in the body", (_name, template) => {
    const mail = template("ana@example.com", "Ana", CODE);
    expect(mail.subject).not.toContain(CODE);
    expect(mail.subject).not.toMatch(/\d{6}/);
    expect(mail.text).toContain(CODE);
    expect(mail.html).toContain(CODE);
  });
});
