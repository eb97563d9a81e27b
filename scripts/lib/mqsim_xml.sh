# scripts/lib/mqsim_xml.sh - MQSim inputs for the tlc-* bench cases.
# shellcheck shell=bash
# Sourced by scripts/bench (`scripts/bench mqsim PATH`). Writes the SSD
# configuration and synthetic workload files MQSim reads (its -i and -w
# options) for the drive of tests/data/drives/tlc_1tb_bench.ini: the same
# geometry, NAND timings, channel rate, write buffer and user capacity,
# on an empty drive (MQSim's preconditioning off, as ftlsim runs the case
# without a prefill). Keys are MQSim's own element names; values are in
# its units (nanoseconds, bytes, sectors of 512 bytes).

# mqsim_ssdconfig FILE: the device. MQSim sizes the logical space as the
# physical one less Overprovisioning_Ratio, so the ratio is 1 - user/raw.
mqsim_ssdconfig() {
    local raw=$((8 * 4 * 2 * 2 * 1366 * 384 * 16384)) user=1000000000000
    local op gc hard
    op=$(awk -v r="$raw" -v u="$user" 'BEGIN { printf "%.6f", 1 - u / r }')
    gc=$(awk 'BEGIN { printf "%.6f", 4 / 1366 }')   # [gc] soft_blocks = 4
    hard=$(awk 'BEGIN { printf "%.6f", 1 / 1366 }') # [gc] hard_blocks = 1
    cat >"$1" <<XML
<?xml version="1.0" encoding="us-ascii"?>
<Execution_Parameter_Set>
  <Host_Parameter_Set>
    <PCIe_Lane_Bandwidth>1.0</PCIe_Lane_Bandwidth>
    <PCIe_Lane_Count>4</PCIe_Lane_Count>
    <SATA_Processing_Delay>400000</SATA_Processing_Delay>
    <Enable_ResponseTime_Logging>false</Enable_ResponseTime_Logging>
    <ResponseTime_Logging_Period_Length>400000</ResponseTime_Logging_Period_Length>
  </Host_Parameter_Set>
  <Device_Parameter_Set>
    <Seed>321</Seed>
    <Enabled_Preconditioning>false</Enabled_Preconditioning>
    <Memory_Type>FLASH</Memory_Type>
    <HostInterface_Type>${MQSIM_HOST:-SATA}</HostInterface_Type>
    <IO_Queue_Depth>32</IO_Queue_Depth>
    <Queue_Fetch_Size>32</Queue_Fetch_Size>
    <Caching_Mechanism>ADVANCED</Caching_Mechanism>
    <Data_Cache_Sharing_Mode>SHARED</Data_Cache_Sharing_Mode>
    <Data_Cache_Capacity>8388608</Data_Cache_Capacity>
    <Data_Cache_DRAM_Row_Size>8192</Data_Cache_DRAM_Row_Size>
    <Data_Cache_DRAM_Data_Rate>800</Data_Cache_DRAM_Data_Rate>
    <Data_Cache_DRAM_Data_Busrt_Size>4</Data_Cache_DRAM_Data_Busrt_Size>
    <Data_Cache_DRAM_tRCD>13</Data_Cache_DRAM_tRCD>
    <Data_Cache_DRAM_tCL>13</Data_Cache_DRAM_tCL>
    <Data_Cache_DRAM_tRP>13</Data_Cache_DRAM_tRP>
    <Address_Mapping>PAGE_LEVEL</Address_Mapping>
    <Ideal_Mapping_Table>true</Ideal_Mapping_Table>
    <CMT_Capacity>268435456</CMT_Capacity>
    <CMT_Sharing_Mode>SHARED</CMT_Sharing_Mode>
    <Plane_Allocation_Scheme>CWDP</Plane_Allocation_Scheme>
    <Transaction_Scheduling_Policy>OUT_OF_ORDER</Transaction_Scheduling_Policy>
    <Overprovisioning_Ratio>$op</Overprovisioning_Ratio>
    <GC_Exec_Threshold>$gc</GC_Exec_Threshold>
    <GC_Block_Selection_Policy>GREEDY</GC_Block_Selection_Policy>
    <Use_Copyback_for_GC>false</Use_Copyback_for_GC>
    <Preemptible_GC_Enabled>false</Preemptible_GC_Enabled>
    <GC_Hard_Threshold>$hard</GC_Hard_Threshold>
    <Dynamic_Wearleveling_Enabled>true</Dynamic_Wearleveling_Enabled>
    <Static_Wearleveling_Enabled>true</Static_Wearleveling_Enabled>
    <Static_Wearleveling_Threshold>100</Static_Wearleveling_Threshold>
    <Prefered_suspend_erase_time_for_read>100000</Prefered_suspend_erase_time_for_read>
    <Preferred_suspend_erase_time_for_write>100000</Preferred_suspend_erase_time_for_write>
    <Preferred_suspend_write_time_for_read>100000</Preferred_suspend_write_time_for_read>
    <Flash_Channel_Count>8</Flash_Channel_Count>
    <Flash_Channel_Width>1</Flash_Channel_Width>
    <Channel_Transfer_Rate>667</Channel_Transfer_Rate>
    <Chip_No_Per_Channel>4</Chip_No_Per_Channel>
    <Flash_Comm_Protocol>NVDDR2</Flash_Comm_Protocol>
    <Flash_Parameter_Set>
      <Flash_Technology>TLC</Flash_Technology>
      <CMD_Suspension_Support>NONE</CMD_Suspension_Support>
      <Page_Read_Latency_LSB>60000</Page_Read_Latency_LSB>
      <Page_Read_Latency_CSB>60000</Page_Read_Latency_CSB>
      <Page_Read_Latency_MSB>60000</Page_Read_Latency_MSB>
      <Page_Program_Latency_LSB>1200000</Page_Program_Latency_LSB>
      <Page_Program_Latency_CSB>1200000</Page_Program_Latency_CSB>
      <Page_Program_Latency_MSB>1200000</Page_Program_Latency_MSB>
      <Block_Erase_Latency>4000000</Block_Erase_Latency>
      <Block_PE_Cycles_Limit>10000</Block_PE_Cycles_Limit>
      <Suspend_Erase_Time>700000</Suspend_Erase_Time>
      <Suspend_Program_Time>100000</Suspend_Program_Time>
      <Die_No_Per_Chip>2</Die_No_Per_Chip>
      <Plane_No_Per_Die>2</Plane_No_Per_Die>
      <Block_No_Per_Plane>1366</Block_No_Per_Plane>
      <Page_No_Per_Block>384</Page_No_Per_Block>
      <Page_Capacity>16384</Page_Capacity>
      <Page_Metadat_Capacity>1872</Page_Metadat_Capacity>
    </Flash_Parameter_Set>
  </Device_Parameter_Set>
</Execution_Parameter_Set>
XML
}

# mqsim_workload FILE READ_PCT DISTRIBUTION SECTORS [REQUESTS]: one
# synthetic flow at queue depth 32 over the whole drive, REQUESTS requests
# (1 M) of SECTORS 512-byte sectors, RANDOM_UNIFORM or STREAMING.
mqsim_workload() {
    cat >"$1" <<XML
<?xml version="1.0" encoding="us-ascii"?>
<MQSim_IO_Scenarios>
  <IO_Scenario>
    <IO_Flow_Parameter_Set_Synthetic>
      <Priority_Class>HIGH</Priority_Class>
      <Device_Level_Data_Caching_Mode>WRITE_CACHE</Device_Level_Data_Caching_Mode>
      <Channel_IDs>0,1,2,3,4,5,6,7</Channel_IDs>
      <Chip_IDs>0,1,2,3</Chip_IDs>
      <Die_IDs>0,1</Die_IDs>
      <Plane_IDs>0,1</Plane_IDs>
      <Initial_Occupancy_Percentage>0</Initial_Occupancy_Percentage>
      <Working_Set_Percentage>100</Working_Set_Percentage>
      <Synthetic_Generator_Type>QUEUE_DEPTH</Synthetic_Generator_Type>
      <Read_Percentage>$2</Read_Percentage>
      <Address_Distribution>$3</Address_Distribution>
      <Percentage_of_Hot_Region>0</Percentage_of_Hot_Region>
      <Generated_Aligned_Addresses>true</Generated_Aligned_Addresses>
      <Address_Alignment_Unit>$4</Address_Alignment_Unit>
      <Request_Size_Distribution>FIXED</Request_Size_Distribution>
      <Average_Request_Size>$4</Average_Request_Size>
      <Variance_Request_Size>0</Variance_Request_Size>
      <Seed>12344</Seed>
      <Average_No_of_Reqs_in_Queue>32</Average_No_of_Reqs_in_Queue>
      <Bandwidth>0</Bandwidth>
      <Stop_Time>0</Stop_Time>
      <Total_Requests_To_Generate>${5:-1000000}</Total_Requests_To_Generate>
    </IO_Flow_Parameter_Set_Synthetic>
  </IO_Scenario>
</MQSim_IO_Scenarios>
XML
}
