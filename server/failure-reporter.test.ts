import { expect, it } from "vitest";
import { failureReporter } from "./failure-reporter";

it("reports the first failure, then once a minute while failures go on, and the recovery once", () => {
  let clock = 0;
  const reports: string[] = [];
  const failures = failureReporter({
    report: (err, n) => reports.push(`${String(err)} x${n}`),
    recovered: (n) => reports.push(`recovered after ${n}`),
    now: () => clock,
  });
  for (let second = 0; second < 125; second++) {
    clock = second * 1000;
    failures.failed("down");
  }
  failures.succeeded();
  failures.succeeded();
  expect(reports).toEqual(["down x1", "down x61", "down x121", "recovered after 125"]);
});
