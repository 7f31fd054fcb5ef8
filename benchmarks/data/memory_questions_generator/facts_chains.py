# Chain facts: key -> (domain, text). Keys are symbolic; ids are assigned after shuffling.
CHAIN = {
    # --- A: checkout deploy failure
    "A1": ("software", "The checkout-service v4.12 deploy on the night of June 3 failed and was rolled back after the database migration step hit its 15-minute timeout."),
    "A2": ("software", "Migration 0087 adds an index on orders.customer_id, a table of roughly 400 million rows, and was written without CONCURRENTLY, so it holds a lock on the table while the index builds."),
    "A3": ("software", "db-prod-2 sat at about 95% CPU from 22:30 until well past midnight on June 3 while the billing-batch reconciliation run was in progress."),
    "A4": ("team", "In late May Ahmed moved the billing-batch start time from 02:00 to 22:30 so finance would have reconciled numbers ready before their morning standup."),
    "A5": ("team", "After the failed checkout rollout, Priya froze all checkout-service releases until migration 0087 is rewritten and re-reviewed."),
    # --- B: Maria surgery / flight
    "B1": ("health", "Maria is scheduled for ACL reconstruction on her left knee on May 14."),
    "B1c": ("health", "Maria's knee operation was moved from May 14 to May 28 because her surgeon had a conference conflict."),
    "B2": ("health", "Maria's surgeon told her not to fly for at least four weeks after the operation because of the risk of blood clots."),
    "B3": ("travel", "Maria plans to fly to Lisbon for cousin Ines's wedding on June 21."),
    "B4": ("travel", "Maria's passport expires on August 30 this year."),
    "B5": ("health", "Maria's physical therapist said that for the first months after the ACL repair she needs an aisle seat with room to keep her leg straight."),
    # --- C: Halvorsen / budget cut
    "C1": ("software", "On March 9 payments-api was down for about six hours because an expired TLS certificate on the internal load balancer broke every call coming from checkout."),
    "C2": ("work", "Halvorsen Logistics cited the March outage when they told us in April they would not renew their contract."),
    "C3": ("finance", "Losing the Halvorsen account takes about $1.2M out of annual recurring revenue."),
    "C4": ("work", "Priya announced a 20% cut to engineering's discretionary spending for Q3, pointing to the revenue shortfall from the lost renewal."),
    "C5": ("travel", "Grace's trip to ProductCon in Berlin was cancelled once engineering's Q3 discretionary money was reduced."),
    "C6": ("software", "After the certificate incident, Kenji added automated alerts that fire 30 days before any certificate expires."),
    # --- D: basement water / insurance
    "D1": ("home", "The water in the basement on April 22 came from heavy rain seeping through the foundation wall."),
    "D2": ("home", "Carlos found that the basement water actually came from a cracked supply line behind the washing machine, not from the rain."),
    "D3": ("finance", "Meridian Mutual denied the claim for the basement damage because the homeowners policy had lapsed on April 1."),
    "D4": ("finance", "The homeowners premium autopay failed in March because it was still charging the Visa card that expired in February."),
    "D5": ("finance", "Rosa recommended moving every autopay off credit cards and onto the checking account so card renewals can't break them again."),
    # --- E: Sam's grades
    "E1": ("school", "Sam's algebra grade fell from a B+ to a D over the spring term."),
    "E2": ("school", "Mrs. Hendricks emailed that Sam has missed nine first-period classes since March."),
    "E3": ("home", "Since March the route 14 bus has been dropping Sam at Westbrook High around 8:20, while first period starts at 8:05."),
    "E4": ("home", "Route 14 was detoured in March because of the Elm Street bridge reconstruction."),
    "E5": ("school", "Mrs. Hendricks offered Sam after-school catch-up sessions on Tuesdays and Thursdays until the end of term."),
    "E6": ("school", "Sam's JV soccer practices are Tuesdays and Thursdays from 3:30 to 5:30."),
    # --- F: cache / search latency
    "F1": ("team", "At the May 17 cost review the team agreed to shrink cache-east from 64GB to 32GB nodes to cut the AWS bill."),
    "F2": ("software", "Since the cache-east resize, evictions have jumped and the hit ratio has fallen from 94% to 71%."),
    "F3": ("software", "Search p99 latency climbed from about 180ms to 1.4s during the week of May 20."),
    "F4": ("software", "Kenji traced the search slowdown to cache misses falling through to the Elasticsearch cluster behind search-indexer."),
    "F5": ("finance", "The AWS bill went down by roughly $3,800 a month after the cache nodes were downsized."),
    # --- G: CI migration / flaky tests
    "G1": ("software", "The Jenkins build server lost two disks in its RAID array on February 11 and builds were down for two days."),
    "G2": ("team", "Because of the Jenkins outage, the team voted to move CI to GitHub Actions by the end of Q1."),
    "G3": ("software", "Since the move to GitHub Actions, the integration test suite fails intermittently, about one run in five."),
    "G4": ("software", "Dev found that the integration tests share one Postgres container and now run in parallel on Actions, whereas Jenkins ran them one at a time."),
    "G5": ("team", "Dev owns the fix for the intermittent integration failures and plans to give each test worker its own schema."),
    # --- H: pet / Lena allergy
    "H1": ("health", "Lena's allergy panel in January came back strongly positive for cat dander."),
    "H2": ("home", "Sam keeps asking to adopt a kitten from the Birch Road shelter."),
    "H3": ("health", "Dr. Okafor said Lena could try living with a so-called hypoallergenic breed but warned that no cat is truly allergen-free."),
    "LP1": ("health", "Lena is allergic to penicillin; amoxicillin gave her hives in 2019."),
    # --- I: refinance
    "I1": ("finance", "Rosa said the refinance rate lock with First Harbor Bank came in at 5.1% for a 30-year fixed."),
    "I1c": ("finance", "First Harbor revised the locked refinance rate down to 4.85% after the appraisal came in higher than expected."),
    "I2": ("finance", "The refinance closing is set for July 18 at the First Harbor branch downtown."),
    "I3": ("finance", "For the refinance closing we have to bring a cashier's check for $4,200 and both our photo IDs."),
    "I4": ("home", "The appraiser valued the house at $612,000, about $40,000 above our estimate, largely because of the redone kitchen."),
    "KIT": ("home", "The kitchen renovation finished in April: new cabinets, quartz counters and an induction range."),
    # --- J: reporting line
    "J1": ("team", "Priya was promoted to VP of Engineering effective June 1."),
    "J2": ("team", "With Priya's move up, Ahmed now leads the platform group, which includes the checkout and payments squads."),
    "J3": ("work", "The user's weekly 1:1 is now with Ahmed on Wednesdays at 11:00, replacing the Monday slot with Priya."),
    # --- K: migraines / on-call
    "K1": ("work", "Since April the user has been on call every third week."),
    "K2": ("health", "The user's sleep tracker shows about 5.5 hours a night on average during on-call weeks, versus 7 otherwise."),
    "K3": ("health", "Dr. Okafor thinks the user's more frequent migraines are tied to broken sleep rather than the new glasses."),
    "K4": ("team", "Marcus and Jen both left the SRE team in March, which cut the on-call rotation from five people to three."),
    "K5": ("health", "Dr. Okafor prescribed rizatriptan to take at the start of a migraine and wants a follow-up visit in six weeks."),
    # --- L: Tokyo trip
    "L1": ("work", "The user is giving a talk at SRECon Asia in Tokyo on October 15."),
    "L3": ("finance", "Company travel policy caps hotels at $250 a night, and the Tokyo conference hotel is $310 a night."),
    "L4": ("work", "On June 10 Priya signed off on the Tokyo trip, including the hotel going over the nightly cap, because the user is a speaker."),
    "L5": ("work", "Since the Q3 cut, any conference travel in Q3 or Q4 needs a VP's approval."),
    # --- M: login outage
    "M1": ("software", "The July 2 login outage was initially blamed on a failed Kafka broker."),
    "M1c": ("software", "The postmortem found the July 2 login outage was actually caused by auth-service exhausting its database connection pool after a config change set the maximum to 10."),
    "M2": ("software", "The connection pool change came in PR #4471, which was only supposed to apply to staging."),
    "M3": ("team", "Since the July 2 postmortem, any change under config/prod needs a second reviewer."),
    # --- N: car / Tahoe
    "N1": ("home", "The Subaru's check-engine light came on June 8, and Eastside Auto says the catalytic converter is failing."),
    "N2": ("finance", "Eastside Auto quoted $2,300 to replace the Subaru's catalytic converter and said it shouldn't be driven long distances until then."),
    "N3": ("travel", "The family is driving the Subaru to a Lake Tahoe cabin over July 4 weekend (Airbnb, July 3-7)."),
    "N4": ("finance", "Rosa suggested paying for the car repair out of the emergency fund, which currently holds $9,500."),
    # --- O: Dev leave / billing knowledge
    "O1": ("work", "Dev starts 12 weeks of parental leave on August 5."),
    "O2": ("software", "Dev is the only engineer who really knows the billing-batch codebase."),
    "O3": ("team", "Ahmed asked Dev to pair with Nadia on billing-batch throughout July as a handover."),
    # --- P: kennel
    "P2": ("home", "Happy Paws kennel requires proof of a current bordetella vaccine before they will board a dog."),
    "P3": ("home", "Biscuit's bordetella vaccine lapsed in May."),
    # --- Q: RSU / taxes
    "Q1": ("finance", "The user sold a block of RSUs in March, which will push this year's taxable income up noticeably."),
    "Q2": ("finance", "Rosa said the user should send an estimated tax payment of $6,000 by September 15 to avoid an underpayment penalty."),
    "Q3": ("finance", "The money from the March RSU sale paid for the kitchen renovation."),
    # --- R: Saved Carts
    "R1": ("work", "Grace pushed the Saved Carts launch back from its June 15 date."),
    "R2": ("software", "Saved Carts depends on checkout-service v4.12, which contains the new cart persistence tables."),
    "R3": ("work", "Grace set the new Saved Carts launch date to July 1."),
    "R3c": ("work", "Grace moved the Saved Carts launch again, to July 8, to give QA a full extra week."),
    # --- S: solar
    "S1": ("home", "SunPeak quoted $18,400 for rooftop solar before the tax credit, and installation can start within three weeks of approval."),
    "S2": ("home", "The HOA architecture committee has to approve any change to a roof; it meets on the first Tuesday of each month."),
    "S3": ("home", "Tom Becker from next door chairs the HOA architecture committee this year."),
    # --- T: cholesterol
    "T1": ("health", "The user's LDL came back at 168 in the May blood work."),
    "T2": ("health", "Dr. Okafor wants to recheck lipids in three months and recommended cutting saturated fat before considering a statin."),
    "T3": ("home", "Since the cholesterol result, Lena has been doing Sunday meal prep with mostly plant-based dinners."),
    # --- U: Postgres upgrade
    "U1": ("software", "Kenji scheduled the db-prod-2 upgrade from Postgres 14 to 16 for July 20."),
    "U1c": ("software", "The db-prod-2 Postgres 16 upgrade was pushed to October 8 so it doesn't land in the middle of Q3 peak season."),
    "U2": ("software", "Before the major-version upgrade, Kenji has to apply the Postgres 14.12 minor release, planned for August 12."),
    # --- V: headcount freeze
    "V1": ("work", "The two open SRE requisitions were frozen as part of the Q3 cut."),
    # --- W: Maria recovery stay
    "W1": ("family", "Maria will stay with us for two weeks right after her knee operation."),
    "W2": ("home", "The guest room and the only full bathroom are both upstairs."),
    "W3": ("home", "The downstairs half-bath has only a toilet and a sink."),
    "W4": ("home", "The stair railing on the upper flight is loose and still on the to-do list."),
    # --- X: card fraud
    "X1": ("finance", "The Chase Sapphire card was frozen on June 12 after a fraudulent charge in Miami; the replacement has a new number."),
    "X2": ("finance", "Netflix, the gym membership and the hold for the Tokyo hotel are all on the Chase Sapphire card."),
    # --- Z: October clash
    "Z1": ("school", "Sam's regional soccer tournament is October 15 in Sacramento and each player needs a parent to drive."),
    "Z2": ("work", "Lena has a work offsite in Chicago October 14-16."),
    # --- AA: exec presentation / internet
    "AA1": ("home", "Comcast is replacing the cable on Oak Lane and home internet will be out June 24-25."),
    "AA2": ("work", "The user is presenting quarterly planning to the exec team on June 25 at 10:00, over video."),
    "AA4": ("home", "The phone's hotspot only gets one bar of 5G inside the house."),
    "AA3": ("work", "WorkHive on 5th Street sells coworking day passes for $30 and has bookable call rooms."),
    # --- BB: Nadia access
    "BB1": ("team", "Nadia Rahman joined the payments squad on June 10."),
    "BB2": ("software", "Nadia still can't read the billing-batch production logs because her access request is waiting on security, which only reviews requests on Fridays."),
    # --- CC: Lena job / coverage
    "CC1": ("work", "Lena accepted a job at Brightline Health starting August 1."),
    "CC2": ("health", "Brightline's health plan has a 30-day waiting period, so Lena's new coverage won't start until September 1."),
    "CC3": ("finance", "Rosa suggested either electing COBRA for August or adding Lena to the user's plan through the job change as a qualifying event."),
    "CC4": ("health", "Lena's overnight sleep study is scheduled for August 14."),
    # --- DD: logging / missed alert
    "DD1": ("software", "The logstore-1 cluster ran out of disk on June 14 and stopped ingesting logs for nine hours."),
    "DD2": ("software", "With ingestion stopped, the payments-api error-rate alert never fired during the June 14 spike in declined cards."),
    "DD3": ("software", "The June 14 spike in card declines was caused by an incident at our card processor, PayCore, not by our code."),
    "DD4": ("team", "Kenji flagged logstore-1 disk headroom in May, but the expansion ticket was deprioritized at the cost review."),
    # --- EE: fence
    "EE1": ("home", "A big branch from Tom Becker's oak came down on our back fence on May 30."),
    "EE2": ("home", "Tom agreed to pay for the fence repair; Fenceworks estimated $1,100."),
    # --- FF: family Lisbon
    "FF1": ("travel", "The user, Lena and Sam fly to Lisbon on June 19 on TAP and come back June 23."),
    "FF2": ("travel", "Sam's passport expired in April and the renewal hasn't come back yet."),
    "FF3": ("travel", "Sam's renewal was sent by standard service on May 5; the passport agency quotes 6-8 weeks for standard and 2-3 weeks if upgraded to expedited."),
    # --- HH: hackathon
    "HH1": ("team", "The July hackathon was called off because the checkout freeze and the slipped launch left no slack in the squad's schedule."),
    # --- identities / moved background facts that some questions need
    "MS": ("family", "Maria Alvarez is the user's younger sister."),
    "RD": ("finance", "Rosa Delgado is the family's accountant and files their taxes every April."),
    "EL": ("work", "Halvorsen Logistics' main contact was Erik Lund, their head of operations."),
    "BIS1": ("home", "Biscuit had surgery on May 2 to remove a sock he swallowed."),
    "BIS2": ("home", "Biscuit is due for his rabies booster in July."),
}
