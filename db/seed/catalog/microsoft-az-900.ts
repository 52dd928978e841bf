import type { SeedCertification } from "./types";

export const microsoftAzureFundamentals: SeedCertification = {
  slug: "microsoft-az-900",
  vendor: "Microsoft",
  code: "AZ-900",
  name: "Microsoft Certified: Azure Fundamentals",
  description:
    "Foundational certification that validates knowledge of cloud concepts, core Azure architecture and services, and Azure management and governance. It suits both technical and non-technical candidates starting out with Azure.",
  domains: [
    {
      name: "Describe cloud concepts",
      questions: [
        {
          prompt: "In the cloud shared responsibility model, which responsibility always remains with the customer, regardless of the service type?",
          options: ["Physical hosts", "Physical network", "Physical datacenter", "Information and data"],
          correct: 3,
          explanation: "The customer always owns its information and data, devices, and accounts and identities. Physical hosts, networks, and datacenters are the cloud provider's responsibility.",
        },
        {
          prompt: "Which cloud model combines public and private clouds, allowing data and applications to move between them?",
          options: ["Public cloud", "Hybrid cloud", "Private cloud", "Community cloud"],
          correct: 1,
          explanation: "A hybrid cloud links private and public cloud environments into one flexible infrastructure. A private cloud is used by a single organization on its own.",
        },
        {
          prompt: "Which type of expenditure does cloud computing typically represent, since you pay for resources as you use them?",
          options: ["Operational expenditure (OpEx)", "Capital expenditure (CapEx)", "Fixed asset depreciation", "Prepaid hardware leasing"],
          correct: 0,
          explanation: "Cloud services are usually billed as ongoing operating costs (OpEx) based on consumption. CapEx is up-front spending on physical infrastructure, such as buying servers.",
        },
        {
          prompt: "What does the consumption-based model mean in cloud computing?",
          options: ["You pay a fixed fee regardless of usage", "You must buy hardware before using services", "You pay only for the resources you use", "You pay once for lifetime access to services"],
          correct: 2,
          explanation: "With the consumption-based model, there are no up-front costs and you are billed only for the resources you actually use. You can also stop paying when you stop using them.",
        },
        {
          prompt: "Which cloud benefit describes automatically adding or removing resources as workload demand changes?",
          options: ["Reliability", "Elasticity", "Predictability", "Manageability"],
          correct: 1,
          explanation: "Elasticity is the ability to scale resources automatically in response to demand. Reliability is the ability of a system to recover from failures and continue functioning.",
        },
        {
          prompt: "Which cloud benefit refers to keeping services accessible even when problems occur, often expressed as a percentage of uptime in an SLA?",
          options: ["Scalability", "Predictability", "Governance", "High availability"],
          correct: 3,
          explanation: "High availability focuses on ensuring maximum uptime and is commonly defined by SLA percentages such as 99.9%. Scalability is about adjusting resources to meet demand.",
        },
        {
          prompt: "Adding more virtual machines to handle increased load is an example of which type of scaling?",
          options: ["Vertical scaling (scaling up)", "Horizontal scaling (scaling out)", "Manual provisioning", "Geo-replication"],
          correct: 1,
          explanation: "Scaling out adds more instances to share the work. Scaling up increases the CPU or memory of an existing instance.",
        },
        {
          prompt: "In which cloud service type does the customer manage the operating system but not the physical hardware?",
          options: ["Platform as a Service (PaaS)", "Software as a Service (SaaS)", "Serverless computing", "Infrastructure as a Service (IaaS)"],
          correct: 3,
          explanation: "With IaaS, such as Azure Virtual Machines, the customer manages the operating system, software, and configuration. In PaaS and SaaS, the provider manages the operating system.",
        },
        {
          prompt: "A company uses Microsoft 365 for email and document collaboration. Which cloud service type is this?",
          options: ["Software as a Service (SaaS)", "Platform as a Service (PaaS)", "Infrastructure as a Service (IaaS)", "Hybrid cloud"],
          correct: 0,
          explanation: "Microsoft 365 delivers complete, ready-to-use applications, which is SaaS. Hybrid cloud is a deployment model, not a service type.",
        },
        {
          prompt: "Which statement best describes a private cloud?",
          options: ["Resources shared by many organizations over the internet", "A mix of on-premises and public cloud resources", "Cloud resources used exclusively by a single organization", "A public cloud available only during business hours"],
          correct: 2,
          explanation: "A private cloud is dedicated to one organization and can be hosted on-site or by a third party. Resources shared by many organizations describe a public cloud.",
        },
        {
          prompt: "Which cloud benefit focuses on helping customers forecast both costs and performance with confidence?",
          options: ["Reliability", "Security", "Predictability", "Manageability"],
          correct: 2,
          explanation: "Predictability covers both performance (through autoscaling and load balancing) and cost (through tracking and forecasting tools). Manageability concerns how the cloud and its resources are managed.",
        },
        {
          prompt: "What is a key characteristic of serverless computing?",
          options: ["The provider manages the servers, and billing is based on execution", "The customer must patch the server operating systems", "Applications must run on dedicated physical hardware", "Resources are billed per reserved physical host"],
          correct: 0,
          explanation: "In serverless computing, the provider handles server infrastructure and scaling, and you pay only when your code runs. Patching operating systems would be an IaaS responsibility.",
        },
      ],
    },
    {
      name: "Describe Azure architecture and services",
      questions: [
        {
          prompt: "What is an Azure region pair?",
          options: ["Two availability zones within a single datacenter", "Two virtual networks connected through peering", "Two regions, usually in the same geography, paired for disaster recovery", "Two subscriptions sharing one billing account"],
          correct: 2,
          explanation: "Region pairs are typically at least 300 miles apart, and Azure prioritizes restoring one region per pair during a broad outage. Availability zones are separate datacenters within one region.",
        },
        {
          prompt: "What is the minimum number of availability zones in every Azure region that supports availability zones?",
          options: ["Two", "Three", "Four", "Five"],
          correct: 1,
          explanation: "Azure regions that support availability zones have a minimum of three separate zones. Each zone is made up of one or more datacenters with independent power, cooling, and networking.",
        },
        {
          prompt: "What is the correct hierarchy of Azure resource organization, from the broadest scope to the narrowest?",
          options: ["Subscriptions, management groups, resources, resource groups", "Resource groups, subscriptions, management groups, resources", "Management groups, resource groups, subscriptions, resources", "Management groups, subscriptions, resource groups, resources"],
          correct: 3,
          explanation: "Management groups contain subscriptions, subscriptions contain resource groups, and resource groups contain resources. Settings such as policies applied at a higher level are inherited by lower levels.",
        },
        {
          prompt: "Which Azure service is the simplest way to run a single container in Azure without managing virtual machines or an orchestrator?",
          options: ["Azure Kubernetes Service", "Azure Container Instances", "Azure Virtual Machine Scale Sets", "Azure Virtual Desktop"],
          correct: 1,
          explanation: "Azure Container Instances runs containers on demand without any VMs or orchestration to manage. Azure Kubernetes Service orchestrates many containers and requires managing a cluster.",
        },
        {
          prompt: "Which Azure compute service runs small pieces of event-driven code without provisioning or managing servers?",
          options: ["Azure Virtual Machines", "Azure Batch", "Azure Virtual Desktop", "Azure Functions"],
          correct: 3,
          explanation: "Azure Functions is a serverless service that runs code in response to events such as HTTP requests or queue messages. Azure Batch runs large-scale parallel jobs on pools of VMs.",
        },
        {
          prompt: "Which Azure service creates and manages a group of identical, load-balanced virtual machines that can scale automatically?",
          options: ["Azure Virtual Machine Scale Sets", "Azure availability sets", "Azure Dedicated Host", "Azure Container Instances"],
          correct: 0,
          explanation: "Virtual Machine Scale Sets automatically increase or decrease the number of identical VMs based on demand or a schedule. Availability sets spread VMs across fault and update domains but do not autoscale.",
        },
        {
          prompt: "Which feature connects two Azure virtual networks directly, without a gateway, so resources communicate privately over the Microsoft backbone network?",
          options: ["Azure VPN Gateway", "Azure ExpressRoute", "Virtual network peering", "Azure DNS"],
          correct: 2,
          explanation: "Virtual network peering links VNets so traffic between them stays private on the Microsoft backbone without a gateway. VPN Gateway uses encrypted tunnels and requires a gateway resource.",
        },
        {
          prompt: "Which Azure service provides a private connection from on-premises infrastructure to Azure that does not travel over the public internet?",
          options: ["Azure VPN Gateway", "Azure Front Door", "Azure ExpressRoute", "Azure Bastion"],
          correct: 2,
          explanation: "ExpressRoute uses a private connection through a connectivity provider, offering more reliability and lower latency than internet links. VPN Gateway sends encrypted traffic over the public internet.",
        },
        {
          prompt: "Which Azure Storage service is optimized for storing massive amounts of unstructured data, such as images and videos?",
          options: ["Azure Blob Storage", "Azure Queue Storage", "Azure Table Storage", "Azure Disk Storage"],
          correct: 0,
          explanation: "Blob Storage is object storage designed for large amounts of unstructured data. Azure Disk Storage provides block-level volumes attached to virtual machines.",
        },
        {
          prompt: "Which Azure Blob Storage access tier has the lowest storage cost but requires rehydration, which can take hours, before data can be read?",
          options: ["Cool", "Cold", "Hot", "Archive"],
          correct: 3,
          explanation: "The Archive tier is offline storage for rarely accessed data, and blobs must be rehydrated to an online tier before reading. The Hot, Cool, and Cold tiers are online and immediately readable.",
        },
        {
          prompt: "Which Azure Storage redundancy option copies data synchronously across three availability zones in the primary region?",
          options: ["Locally redundant storage (LRS)", "Zone-redundant storage (ZRS)", "Geo-redundant storage (GRS)", "Read-access geo-redundant storage (RA-GRS)"],
          correct: 1,
          explanation: "ZRS replicates data synchronously across three availability zones in one region. LRS keeps three copies within a single datacenter, and GRS uses LRS in the primary region plus a copy in a secondary region.",
        },
        {
          prompt: "Which Microsoft service is the cloud-based identity and access management service formerly known as Azure Active Directory?",
          options: ["Microsoft Entra ID", "Azure Key Vault", "Microsoft Defender for Cloud", "Azure Policy"],
          correct: 0,
          explanation: "Microsoft Entra ID provides authentication, single sign-on, and conditional access. Azure Key Vault stores secrets, keys, and certificates.",
        },
      ],
    },
    {
      name: "Describe Azure management and governance",
      questions: [
        {
          prompt: "Which Azure service enforces organizational rules, such as allowing resources to be created only in specific regions?",
          options: ["Azure role-based access control (RBAC)", "Azure Policy", "Resource locks", "Azure Advisor"],
          correct: 1,
          explanation: "Azure Policy evaluates and enforces rules on resource properties, such as allowed locations or SKUs. Azure RBAC controls who can perform actions, not which resource settings are allowed.",
        },
        {
          prompt: "Which feature prevents resources from being accidentally deleted, even by users who have the Owner role?",
          options: ["An Azure Policy with the audit effect", "A Microsoft Purview sensitivity label", "An Azure Advisor recommendation", "A resource lock set to Delete (CanNotDelete)"],
          correct: 3,
          explanation: "A delete lock blocks deletion for all users, including Owners, until the lock is removed. An audit policy only reports non-compliance and does not block actions.",
        },
        {
          prompt: "Which Azure service provides personalized recommendations to improve the reliability, security, performance, operational excellence, and cost of your resources?",
          options: ["Azure Advisor", "Azure Service Health", "Azure Arc", "Microsoft Purview"],
          correct: 0,
          explanation: "Azure Advisor analyzes your resource configuration and usage and recommends improvements across those five categories. Service Health reports Azure platform issues that affect you.",
        },
        {
          prompt: "Which service notifies you about Azure service incidents and planned maintenance that affect your specific resources?",
          options: ["Azure Advisor", "Microsoft Purview", "Azure Service Health", "Azure Policy"],
          correct: 2,
          explanation: "Azure Service Health provides a personalized view of outages, planned maintenance, and health advisories for the services and regions you use. Azure Advisor gives best-practice recommendations instead.",
        },
        {
          prompt: "Which Azure service extends Azure management and governance to servers and Kubernetes clusters running on-premises or in other clouds?",
          options: ["Azure Migrate", "Azure Bastion", "Azure Arc", "Azure Front Door"],
          correct: 2,
          explanation: "Azure Arc projects external resources into Azure Resource Manager so they can be managed with Azure tools such as Azure Policy. Azure Migrate helps assess and move workloads into Azure.",
        },
        {
          prompt: "Which tool estimates the monthly cost of specific Azure services, such as a chosen VM size and amount of storage, before you deploy them?",
          options: ["Azure pricing calculator", "Microsoft Cost Management", "Azure Advisor", "Azure Service Health"],
          correct: 0,
          explanation: "The pricing calculator estimates costs for services you plan to deploy. Microsoft Cost Management analyzes the costs of resources you have already deployed.",
        },
        {
          prompt: "Which service lets you analyze Azure spending, create budgets, and receive alerts when costs exceed set thresholds?",
          options: ["Azure pricing calculator", "Azure Monitor", "Azure Resource Manager", "Microsoft Cost Management"],
          correct: 3,
          explanation: "Microsoft Cost Management provides cost analysis, budgets, and alerts for deployed resources. The pricing calculator only estimates costs before deployment.",
        },
        {
          prompt: "What is the main purpose of tags in Azure?",
          options: ["To prevent resources from being modified or deleted", "To add name-value metadata to resources for organization and cost tracking", "To restrict which regions resources can be deployed in", "To grant users permissions on a resource group"],
          correct: 1,
          explanation: "Tags are name-value pairs used to organize resources and group costs, for example by department or environment. Preventing deletion is the job of resource locks.",
        },
        {
          prompt: "In which format are Azure Resource Manager (ARM) templates written to define infrastructure declaratively?",
          options: ["JSON", "YAML", "XML", "CSV"],
          correct: 0,
          explanation: "ARM templates are JSON files that declare the resources to deploy. Bicep is a separate, more concise language that compiles into ARM template JSON.",
        },
        {
          prompt: "Which browser-based command-line environment, already authenticated to your Azure account, supports both Bash and PowerShell?",
          options: ["Azure portal dashboard", "Azure Arc", "Azure Cloud Shell", "Azure Bastion"],
          correct: 2,
          explanation: "Azure Cloud Shell runs in the browser with Azure CLI and Azure PowerShell preinstalled. Azure Bastion provides secure RDP and SSH access to virtual machines.",
        },
        {
          prompt: "Which service provides unified data governance, helping discover, classify, and manage data across on-premises, multicloud, and SaaS sources?",
          options: ["Azure Policy", "Microsoft Purview", "Microsoft Entra ID", "Azure Monitor"],
          correct: 1,
          explanation: "Microsoft Purview offers data governance, risk, and compliance capabilities, including data discovery and classification. Azure Policy governs resource configurations rather than data.",
        },
        {
          prompt: "Which Azure Monitor feature monitors the availability, performance, and usage of web applications?",
          options: ["Azure Service Health", "Azure Advisor", "Azure Arc", "Application Insights"],
          correct: 3,
          explanation: "Application Insights collects application telemetry such as request rates, response times, and failures. Azure Service Health reports on the health of the Azure platform itself.",
        },
      ],
    },
  ],
};
