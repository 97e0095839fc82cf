import type { AppDeps } from "@/server/app-deps";
import type { Consumer } from "@/server/jobs/consumer";
import { monitoringConsumer } from "@/server/jobs/consumers/monitoring";
import { pushesConsumer } from "@/server/jobs/consumers/pushes";
import { savingsNoticesConsumer } from "@/server/jobs/consumers/savings-notices";
import { tagPaymentsConsumer } from "@/server/jobs/consumers/tag-payments";
import { transferMailConsumer } from "@/server/jobs/consumers/transfer-mail";

/**
 * Every consumer of the event log, in one list (decision 051): what runs after a money movement's commit.
 * Each has its own cursor; adding one here is all it takes to run it on every instance.
 */
export function consumersFor(deps: AppDeps): Consumer[] {
  return [
    pushesConsumer,
    tagPaymentsConsumer,
    monitoringConsumer,
    transferMailConsumer(deps),
    savingsNoticesConsumer,
  ];
}
