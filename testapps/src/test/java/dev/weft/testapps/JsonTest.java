package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void writesWhatJacksonReadsBack() throws Exception {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("text", "quote \" backslash \\ newline \n tab \t control \u0001 é");
    value.put("long", Long.MAX_VALUE);
    value.put("double", 2.5e-18);
    value.put("list", List.of(1L, "two", true));
    value.put("null", null);
    value.put("nan", Double.NaN);
    String json = Json.write(value);
    Map<?, ?> back = new ObjectMapper().readValue(json, Map.class);
    assertEquals(value.get("text"), back.get("text"));
    assertEquals(Long.MAX_VALUE, back.get("long"));
    assertEquals(2.5e-18, back.get("double"));
    assertEquals(Arrays.asList(1, "two", true), back.get("list"));
    assertEquals(null, back.get("nan"));
    assertEquals(-1, json.indexOf('\n'));
  }
}
