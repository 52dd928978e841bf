import type { SeedCertification } from "./types";
import { awsCloudPractitioner } from "./aws-clf-c02";
import { comptiaSecurityPlus } from "./comptia-security-plus-sy0-701";
import { comptiaNetworkPlus } from "./comptia-network-plus-n10-009";
import { microsoftAzureFundamentals } from "./microsoft-az-900";

export const catalog: SeedCertification[] = [
  awsCloudPractitioner,
  comptiaSecurityPlus,
  comptiaNetworkPlus,
  microsoftAzureFundamentals,
];
