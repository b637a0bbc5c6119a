//! The host's `islandSlots` table: island id → slot name → how to find the slot.

/// How a slot element is found inside its island.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotSpec {
    /// `{ "ariaLabel": "Next page" }`: the element whose aria-label is exactly this.
    AriaLabel(String),
    /// `{ "role": "button", "name": "Next" }`: role plus accessible name.
    RoleName { role: String, name: String },
}

/// Ordered as the host wrote it (JS object key order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IslandSlots {
    pub islands: Vec<(String, Vec<(String, SlotSpec)>)>,
}

impl IslandSlots {
    pub fn slots_of(&self, island: &str) -> &[(String, SlotSpec)] {
        self.islands
            .iter()
            .find(|(id, _)| id == island)
            .map(|(_, s)| s.as_slice())
            .unwrap_or(&[])
    }

    /// Parses one slot description, with an error that names what is wrong.
    pub fn parse_spec(
        island: &str,
        slot: &str,
        aria_label: Option<String>,
        role: Option<String>,
        name: Option<String>,
    ) -> Result<SlotSpec, String> {
        match (aria_label, role, name) {
            (Some(label), None, None) => Ok(SlotSpec::AriaLabel(label)),
            (None, Some(role), Some(name)) => Ok(SlotSpec::RoleName { role, name }),
            _ => Err(format!(
                "islandSlots[{}][{}] must be {{ ariaLabel: string }} or {{ role: string, name: string }}",
                crate::json::quote(island),
                crate::json::quote(slot)
            )),
        }
    }

    /// Reads the table from JSON (tests and JSON configs; key order is the map's).
    pub fn from_json(value: &serde_json::Value) -> Result<Self, String> {
        let obj = value
            .as_object()
            .ok_or_else(|| "islandSlots must be an object".to_string())?;
        let mut islands = Vec::new();
        for (island, slots) in obj {
            let slots = slots.as_object().ok_or_else(|| {
                format!(
                    "islandSlots[{}] must be an object",
                    crate::json::quote(island)
                )
            })?;
            let mut list = Vec::new();
            for (slot, spec) in slots {
                let field = |k: &str| spec.get(k).and_then(|v| v.as_str()).map(str::to_string);
                let spec = Self::parse_spec(
                    island,
                    slot,
                    field("ariaLabel"),
                    field("role"),
                    field("name"),
                )?;
                list.push((slot.clone(), spec));
            }
            islands.push((island.clone(), list));
        }
        Ok(Self { islands })
    }
}
